import { describe, expect, it } from 'vitest';
import type { MessageDetail } from '../../../main/contract/models';
import { bodyLabel } from '../../../renderer/src/features/detail/bodyLabel';
import { fieldLabel, formProblems, labelledMessage, testEventName } from '../../../renderer/src/features/destinations/model';

describe('the Destinations forms name fields as they label them', () => {
  it('maps API field names to the form labels', () => {
    expect(fieldLabel('webhooks[1].url')).toBe('Webhook 2 URL');
    expect(fieldLabel('patch.webhooks[0].headers.X-Env')).toBe('Webhook 1 header X-Env');
    expect(fieldLabel('webhooks[0].headers')).toBe('Webhook 1 headers');
    expect(fieldLabel('webhooks[5]')).toBe('Webhook URLs');
    expect(fieldLabel('name')).toBe('Name');
    expect(fieldLabel('patch.retry.schedule[2]')).toBe('Retry schedule');
    expect(fieldLabel('sources[0]')).toBe('Sources');
    expect(fieldLabel('sharedSecret')).toBe('Shared secret');
  });

  it('rewrites a server error to start with the label', () => {
    expect(labelledMessage({ field: 'webhooks[0].headers.Host', message: 'webhooks[0].headers.Host: header "Host" is set by Hookbench and cannot be configured' })).toBe(
      'Webhook 1 header Host: header "Host" is set by Hookbench and cannot be configured',
    );
    expect(labelledMessage({ field: 'name', message: 'name: a destination named "Taken" already exists' })).toBe('Name: a destination named "Taken" already exists');
    expect(labelledMessage({ message: 'no field' })).toBe('no field');
  });

  it('finds what the API would refuse, per slot, with the row the user sees (empty rows are not renumbered)', () => {
    const rows = [
      { url: 'http://127.0.0.1:9/ok', headers: [] },
      { url: '', headers: [] },
      { url: 'ftp://nope', headers: [{ name: 'Host', value: 'x' }] },
    ];
    const problems = formProblems({ name: ' ', sources: [], sharedSecret: null }, rows);
    expect(problems['name']).toBe('Name: must not be empty');
    expect(problems['webhooks[2].url']).toMatch(/^Webhook 3 URL: must be an absolute http:\/\/ or https:\/\/ URL/);
    expect(problems['webhooks[2].headers']).toBe('Webhook 3 header Host: header "Host" is set by Hookbench and cannot be configured');
    expect(problems['webhooks[1].url']).toBeUndefined();
    expect(formProblems({ name: 'Fine', sources: [], sharedSecret: 's' }, [rows[0]!])).toEqual({});
  });
});

describe('Send test event', () => {
  const filters = (allowEvents: string[], blockEvents: string[] = []) => ({ name: 'D', filters: { allowEvents, blockEvents } });
  it('sends an event the destination lets through', () => {
    expect(testEventName(filters([]))).toEqual({ event: 'Test Event', filteredAnyway: false });
    expect(testEventName(filters(['Order Completed', 'Signed Up']))).toEqual({ event: 'Order Completed', filteredAnyway: false });
    expect(testEventName(filters(['Order Completed', 'Signed Up'], ['Order Completed']))).toEqual({ event: 'Signed Up', filteredAnyway: false });
    expect(testEventName(filters([], ['Test Event']))).toEqual({ event: 'Test Event 2', filteredAnyway: false });
    expect(testEventName(filters(['A'], ['A']))).toEqual({ event: 'Test Event', filteredAnyway: true });
  });
});

describe('the message body is labelled by what happened to it', () => {
  const detail = (status: string, deliveries: string[], attempts: { statusCode: number | null; outcome: string }[] = []) =>
    ({ message: { status }, deliveries: deliveries.map((s) => ({ status: s })), attempts }) as unknown as MessageDetail;
  it('delivered only when a delivery was', () => {
    expect(bodyLabel(detail('delivered', ['delivered'], [{ statusCode: 200, outcome: 'success' }]))).toBe('Body delivered');
    expect(bodyLabel(detail('filtered', []))).toBe('Body not sent: filtered');
    expect(bodyLabel(detail('cancelled', ['cancelled']))).toBe('Body not sent: cancelled');
    expect(bodyLabel(detail('cancelled', ['cancelled'], [{ statusCode: 500, outcome: 'http_error' }]))).toBe('Body sent, not delivered: cancelled');
    expect(bodyLabel(detail('failed', ['failed'], [{ statusCode: 404, outcome: 'http_error' }]))).toBe('Body sent, not delivered: failed');
    expect(bodyLabel(detail('queued', ['queued']))).toBe('Body to deliver');
    expect(bodyLabel(detail('retrying', ['retrying'], [{ statusCode: 503, outcome: 'http_error' }]))).toBe('Body sent, not delivered yet');
  });
});

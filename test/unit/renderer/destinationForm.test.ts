import { describe, expect, it } from 'vitest';
import type { MessageDetail } from '../../../main/contract/messages';
import { destinationInputSchema, destinationPatchSchema } from '../../../main/contract/schemas';
import { bodyLabel, sizeFact } from '../../../renderer/src/features/detail/bodyLabel';
import { checkDestinationForm, DELIVERY_LIMITS, serverProblem, serverProblems, shownErrors, type DeliveryForm, type DestinationForm } from '../../../renderer/src/features/destinations/destinationForm';
import { fieldLabel, testEventName } from '../../../renderer/src/features/destinations/model';
import { durationUnit, formatInUnit } from '../../../renderer/src/lib/duration';

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
});

/** The editor as a destination with the defaults opens it. */
const delivery = (d: Partial<DeliveryForm> = {}): DeliveryForm => ({ timeout: '5s', schedule: '5s, 30s, 2m, 10m, 30m, 1h, 2h', window: '4h', jitter: '0.2', maxAttempts: '', ...d });
const editor = (f: Partial<DestinationForm> = {}): DestinationForm => ({
  name: 'Orders',
  sources: [],
  rows: [{ url: 'http://127.0.0.1:9/hook', headers: [] }],
  enabled: false,
  delivery: delivery(),
  filters: { allow: '', block: '' },
  caFile: '',
  ...f,
});
const problemsOf = (f: Partial<DestinationForm>) => checkDestinationForm('update', editor(f)).problems;

describe('the destination form checks what the command checks, every problem at once, in the field’s units', () => {
  it('a form with nothing wrong is a patch the command schema takes', () => {
    const checked = checkDestinationForm('update', editor({ delivery: delivery({ maxAttempts: '8', jitter: '20%' }), secret: 's3cret', caFile: ' /ca.pem ' }));
    expect(checked.problems).toEqual({});
    expect(destinationPatchSchema.safeParse(checked.input).success).toBe(true);
    expect(checked.input).toMatchObject({ timeoutMs: 5000, retry: { schedule: [5000, 30000, 120000, 600000, 1800000, 3600000, 7200000], windowMs: 14_400_000, jitter: 0.2, maxAttempts: 8 }, sharedSecret: 's3cret', caFile: '/ca.pem' });
    expect(checked.policy).toEqual({ schedule: [5000, 30000, 120000, 600000, 1800000, 3600000, 7200000], windowMs: 14_400_000, jitter: 0.2, maxAttempts: 8 });
    // An empty Max attempts clears the cap in a patch; an empty secret means unsigned; an untouched one is left out.
    expect(checkDestinationForm('update', editor({ secret: ' ' })).input).toMatchObject({ retry: { maxAttempts: null }, sharedSecret: null, caFile: null });
    expect(checkDestinationForm('update', editor()).input).not.toHaveProperty('sharedSecret');
  });

  it('all at once: Timeout 500s, a bad URL, a reserved header, a long secret, max attempts 0 and a schedule entry too long, each on its field', () => {
    const problems = problemsOf({
      name: ' ',
      rows: [{ url: 'ftp://example.com/hook', headers: [{ name: 'Host', value: 'x' }, { name: 'bad name', value: 'v' }] }],
      secret: 'x'.repeat(1100),
      delivery: delivery({ timeout: '500s', maxAttempts: '0', schedule: '5s, 8d' }),
    });
    expect(problems).toEqual({
      name: 'Name: must not be empty',
      'webhooks[0].url': 'Webhook 1 URL: must be an absolute http:// or https:// URL (or receiver:<name>); got ftp:// instead',
      'webhooks[0].headers': 'Webhook 1 header Host: header "Host" is set by Hookbench and cannot be configured\nWebhook 1 header bad name: "bad name" is not a valid HTTP header name',
      sharedSecret: 'Shared secret: must be at most 1,024 characters (got 1,100)',
      timeoutMs: 'Timeout: must be at most 120 s (got 500 s)',
      'retry.maxAttempts': 'Max attempts: must be at least 1 attempt (got 0); leave it empty for no cap',
      'retry.schedule': 'Retry schedule: entry 2: must be at most 7 d (got 8 d)',
    });
    // In the order the form shows its fields, never a number of milliseconds the user did not type.
    expect(Object.keys(problems)).toEqual(['name', 'webhooks[0].url', 'webhooks[0].headers', 'sharedSecret', 'timeoutMs', 'retry.maxAttempts', 'retry.schedule']);
    expect(Object.values(problems).join('\n')).not.toMatch(/120000|604800000|Too big|Too small|expected/);
  });

  it('a duration’s problem is said in the unit it was typed in', () => {
    const timeout = (t: string) => problemsOf({ delivery: delivery({ timeout: t }) })['timeoutMs'];
    expect(timeout('500s')).toBe('Timeout: must be at most 120 s (got 500 s)');
    expect(timeout('500 sec')).toBe('Timeout: must be at most 120 s (got 500 s)');
    expect(timeout('2m30s')).toBe('Timeout: must be at most 120 s (got 150 s)');
    expect(timeout('3m')).toBe('Timeout: must be at most 2 min (got 3 min)');
    expect(timeout('1h')).toBe('Timeout: must be at most 2 min (got 1 h)');
    expect(timeout('150000ms')).toBe('Timeout: must be at most 120,000 ms (got 150,000 ms)');
    expect(timeout('0s')).toBe('Timeout: must be longer than 0 s');
    expect(timeout('120s')).toBeUndefined();
    expect(timeout('soon')).toBe('Timeout: "soon" is not a duration: write it like 5s, 2m, 1h30m or 500ms');
    expect(timeout('')).toBe('Timeout: give a duration such as 5s, 2m or 4h');
    expect(problemsOf({ delivery: delivery({ window: '31d' }) })['retry.windowMs']).toBe('Retry window: must be at most 30 d (got 31 d)');
    expect(problemsOf({ delivery: delivery({ window: '800h' }) })['retry.windowMs']).toBe('Retry window: must be at most 720 h (got 800 h)');
  });

  it('a number without a unit is refused in every duration field, never read as milliseconds (30 in Timeout would be 30 ms)', () => {
    const problems = problemsOf({ delivery: delivery({ timeout: '30', schedule: '5s, 30, 2m', window: '4' }) });
    expect(problems['timeoutMs']).toBe('Timeout: "30" has no unit: write 30ms, 30s, 30m or 30h');
    expect(problems['retry.schedule']).toBe('Retry schedule: entry 2: "30" has no unit: write 30ms, 30s, 30m or 30h');
    expect(problems['retry.windowMs']).toBe('Retry window: "4" has no unit: write 4ms, 4s, 4m or 4h');
    // 0 is the same in every unit: a window of 0 (no retries) needs none.
    expect(problemsOf({ delivery: delivery({ window: '0' }) })['retry.windowMs']).toBeUndefined();
  });

  it('the retry schedule names every bad entry, in order, whether it is not a duration or out of bounds', () => {
    expect(problemsOf({ delivery: delivery({ schedule: '5s, 8d, nope, 0s' }) })['retry.schedule']).toBe(
      'Retry schedule: entry 2: must be at most 7 d (got 8 d)\nRetry schedule: entry 3: "nope" is not a duration: write it like 5s, 2m, 1h30m or 500ms\nRetry schedule: entry 4: must be longer than 0 s',
    );
    expect(problemsOf({ delivery: delivery({ schedule: ' ' }) })['retry.schedule']).toBe('Retry schedule: give at least one delay, such as 5s, 30s, 2m');
    expect(problemsOf({ delivery: delivery({ schedule: Array(101).fill('5s').join(',') }) })['retry.schedule']).toBe('Retry schedule: must have at most 100 delays (got 101)');
  });

  it('jitter as a share or a percentage, max attempts as a count', () => {
    const jitter = (j: string) => problemsOf({ delivery: delivery({ jitter: j }) })['retry.jitter'];
    expect(jitter('150%')).toBe('Jitter: must be at most 100 % (got 150 %)');
    expect(jitter('1.5')).toBe('Jitter: must be at most 1 (got 1.5); 0.2 is ±20 %');
    expect(jitter('-0.1')).toBe('Jitter: must be at least 0 (got -0.1); 0.2 is ±20 %');
    expect(jitter('lots')).toBe('Jitter: "lots" is not a share: write it like 0.2 or 20%');
    expect(jitter('100%')).toBeUndefined();
    const max = (m: string) => problemsOf({ delivery: delivery({ maxAttempts: m }) })['retry.maxAttempts'];
    expect(max('5000')).toBe('Max attempts: must be at most 1,000 attempts (got 5,000)');
    expect(max('1.5')).toBe('Max attempts: must be a whole number (got 1.5)');
    expect(max('many')).toBe('Max attempts: "many" is not a number: write a whole number, or leave it empty for no cap');
    expect(max('')).toBeUndefined();
  });

  it('event names and the CA file in characters; the retry ladder waits for valid retry fields', () => {
    const long = 'E'.repeat(1100);
    expect(problemsOf({ filters: { allow: `Order Completed\n${long}`, block: '' } })['filters.allowEvents']).toBe(`Allow events: "${'E'.repeat(24)}…": must be at most 1,024 characters (got 1,100)`);
    expect(problemsOf({ caFile: `/${'d'.repeat(5000)}` })['caFile']).toBe('CA file: must be at most 4,096 characters (got 5,001)');
    expect(checkDestinationForm('update', editor({ delivery: delivery({ jitter: '2' }) })).policy).toBeNull();
    expect(checkDestinationForm('update', editor({ delivery: delivery({ timeout: '500s' }) })).policy).not.toBeNull();
  });

  it('webhook problems name the row the user sees (empty rows are not sent, nor renumbered)', () => {
    const rows = [{ url: 'http://127.0.0.1:9/ok', headers: [] }, { url: '', headers: [] }, { url: 'ftp://nope', headers: [{ name: 'Host', value: 'x' }] }];
    const problems = checkDestinationForm('create', { name: ' ', sources: [], rows, secret: '', enabled: false }).problems;
    expect(problems['name']).toBe('Name: must not be empty');
    expect(problems['webhooks[2].url']).toMatch(/^Webhook 3 URL: must be an absolute http:\/\/ or https:\/\/ URL/);
    expect(problems['webhooks[2].headers']).toBe('Webhook 3 header Host: header "Host" is set by Hookbench and cannot be configured');
    expect(problems['webhooks[1].url']).toBeUndefined();
    const fine = checkDestinationForm('create', { name: 'Fine', sources: [], rows: [rows[0]!], secret: 's', enabled: true });
    expect(fine.problems).toEqual({});
    expect(destinationInputSchema.safeParse(fine.input).success).toBe(true);
  });

  it('a header with a value but no name, or a name given twice, is named on the headers instead of being dropped from what Save sends', () => {
    const headers = [
      { name: 'X-Env', value: 'prod' },
      { name: '', value: 'Bearer abc' },
      { name: 'X-Env', value: 'staging' },
      { name: 'x-env', value: 'dev' },
    ];
    expect(problemsOf({ rows: [{ url: 'https://example.com/hook', headers }] })['webhooks[0].headers']).toBe(
      [
        'Webhook 1 header 2 name: empty, but the header has a value: give its name, or remove the header',
        'Webhook 1 header X-Env: header "X-Env" is given twice (first as "X-Env"; names are case-insensitive)',
        'Webhook 1 header x-env: header "x-env" is given twice (first as "X-Env"; names are case-insensitive)',
      ].join('\n'),
    );
    // A header row left empty is nothing typed: not a problem, not sent.
    expect(problemsOf({ rows: [{ url: 'https://example.com/hook', headers: [{ name: '', value: '' }] }] })).toEqual({});
  });

  it('a destination that is on needs a webhook URL: on the switch in the new form, on the URLs in the editor', () => {
    const none = [{ url: '', headers: [] }];
    expect(checkDestinationForm('create', { name: 'A', sources: [], rows: none, secret: '', enabled: true }).problems).toEqual({ enabled: 'Enabled: it cannot be saved on without a webhook URL; give one, or turn it off' });
    expect(problemsOf({ rows: none, enabled: true })).toEqual({ webhooks: 'Webhook URLs: a destination that is on needs at least one; give one, or turn it off first' });
    expect(problemsOf({ rows: none, enabled: false })).toEqual({});
  });

  it('the help states the schema’s own bounds', () => {
    expect(DELIVERY_LIMITS).toEqual({
      timeoutMs: { default: 5000, max: 120_000 },
      scheduleEntryMs: { max: 7 * 86_400_000 },
      windowMs: { max: 30 * 86_400_000 },
      maxAttempts: { min: 1, max: 1000 },
      jitter: { min: 0, max: 1 },
    });
  });

  it('durations are said in the unit typed when they read well there', () => {
    expect(durationUnit('500s')).toBe('s');
    expect(durationUnit('1h30m')).toBe('min');
    expect(durationUnit('250ms')).toBe('ms');
    expect(durationUnit('250')).toBeNull();
    expect(durationUnit('soon')).toBeNull();
    expect(formatInUnit(120_000, 's')).toBe('120 s');
    expect(formatInUnit(90_000, 'min')).toBe('1.5 min');
    expect(formatInUnit(120_000, 'h')).toBe('2 min');
    expect(formatInUnit(1, 's')).toBe('1 ms');
  });
});

describe('server errors that still come back land on their field, in its units', () => {
  const form = editor({ rows: [{ url: '', headers: [] }, { url: 'receiver:gone', headers: [] }], delivery: delivery({ timeout: '500s' }) });
  it('a name clash on Name, a webhook on the row the user sees, a bound in the field’s unit', () => {
    expect(serverProblem('update', form, { field: 'patch.name', message: 'patch.name: a destination named "Taken" already exists' })).toEqual({ slot: 'name', message: 'Name: a destination named "Taken" already exists', value: '"Orders"' });
    // Only the second row was sent: the server's webhooks[0] is the form's Webhook 2.
    expect(serverProblem('update', form, { field: 'patch.webhooks[0].url', message: 'patch.webhooks[0].url: no receiver named "gone"' })).toMatchObject({ slot: 'webhooks[1].url', message: 'Webhook 2 URL: no receiver named "gone"' });
    expect(serverProblem('update', form, { field: 'patch.timeoutMs', message: 'patch.timeoutMs: Too big: expected number to be <=120000', limit: 120_000 })).toMatchObject({ slot: 'timeoutMs', message: 'Timeout: must be at most 120 s (got 500 s)' });
    expect(serverProblem('update', form, { field: 'patch.enabled', message: 'patch.enabled: a destination cannot be enabled without at least one webhook' })).toMatchObject({ slot: 'webhooks' });
    expect(serverProblem('update', form, { field: 'id', message: 'id: no destination "x"' })).toBeNull();
    expect(serverProblem('update', form, { message: 'no field' })).toBeNull();
  });

  it('every problem of one refusal lands on its field, not only the first with "(and 1 more problem)"', () => {
    const error = {
      code: 'conflict' as const,
      field: 'patch.name',
      message: 'patch.name: a destination named "Taken" already exists (and 2 more problems)',
      problems: [
        { code: 'invalid_config' as const, field: 'patch.caFile', message: 'patch.caFile: /nope/ca.pem does not exist' },
        { code: 'not_found' as const, field: 'id', message: 'id: no destination "x"' },
      ],
    };
    const { placed, unplaced } = serverProblems('update', { ...form, caFile: '/nope/ca.pem' }, error);
    expect(placed.map((p) => [p.slot, p.message])).toEqual([
      ['name', 'Name: a destination named "Taken" already exists'],
      ['caFile', 'CA file: /nope/ca.pem does not exist'],
    ]);
    // What the form has no field for is left for a notice.
    expect(unplaced.map((p) => p.message)).toEqual(['id: no destination "x"']);
  });

  it('shows until the field it is about changes', () => {
    const clash = serverProblem('update', form, { field: 'patch.name', message: 'patch.name: a destination named "Taken" already exists' })!;
    expect(shownErrors({}, new Set(), [clash], form)).toEqual({ name: 'Name: a destination named "Taken" already exists' });
    expect(shownErrors({}, new Set(), [clash], { ...form, caFile: '/x.pem' })).toEqual({ name: 'Name: a destination named "Taken" already exists' });
    expect(shownErrors({}, new Set(), [clash], { ...form, name: 'Orders 2' })).toEqual({});
  });

  it('the form’s own problems show once their field was left, all of them after Save', () => {
    const { problems } = checkDestinationForm('update', editor({ name: '', delivery: delivery({ timeout: '500s' }) }));
    expect(Object.keys(shownErrors(problems, new Set(['timeoutMs']), [], form))).toEqual(['timeoutMs']);
    expect(Object.keys(shownErrors(problems, 'all', [], form))).toEqual(['name', 'timeoutMs']);
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

  it('the Size fact says the body was sent only once an attempt sent it', () => {
    const sized = (status: string, deliveries: string[], attempts: { statusCode: number | null; outcome: string }[] = []) => {
      const d = detail(status, deliveries, attempts);
      return sizeFact({ ...d, message: { ...d.message, call: { type: 'track', event: 'Ping' }, body: 'x'.repeat(175) } });
    };
    expect(sized('delivered', ['delivered'], [{ statusCode: 200, outcome: 'success' }])).toBe('call 31 B of 32 KiB · body sent 175 B');
    expect(sized('retrying', ['retrying'], [{ statusCode: null, outcome: 'timeout' }])).toBe('call 31 B of 32 KiB · body sent 175 B');
    // Filtered, or every attempt refused at the TLS handshake: nothing went out.
    expect(sized('filtered', [])).toBe('call 31 B of 32 KiB · body 175 B');
    expect(sized('failed', ['failed'], [{ statusCode: null, outcome: 'tls_error' }])).toBe('call 31 B of 32 KiB · body 175 B');
  });
});

/** One realistic example per type (one click in the composer). */
import type { MessageType } from '../../../main/contract/message/messageShapes';

export const EXAMPLES: Record<MessageType, Record<string, unknown>> = {
  track: { userId: 'user-7', event: 'Order Completed', properties: { orderId: 'o-1042', total: 42.5, currency: 'EUR', items: 3 } },
  page: { userId: 'user-7', name: 'Pricing', category: 'Marketing', properties: { path: '/pricing', title: 'Pricing – Acme', url: 'https://acme.test/pricing', referrer: 'https://search.test/' } },
  screen: { userId: 'user-7', name: 'Checkout', context: { app: { name: 'Acme', version: '3.2.1' }, device: { type: 'ios' } } },
  identify: { userId: 'user-7', traits: { email: 'ada@example.com', name: 'Ada Lovelace', plan: 'pro', logins: 12 } },
  group: { userId: 'user-7', groupId: 'acme-inc', traits: { name: 'Acme Inc.', industry: 'Manufacturing', employees: 420 } },
  alias: { previousId: 'anon-42', userId: 'user-7' },
  delete: { userId: 'user-7' },
};

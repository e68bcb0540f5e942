/**
 * The HAR 1.2 structure (http://www.softwareishard.com/blog/har-12-spec/) as a zod schema: every required
 * field with its type, optional ones where the spec allows them, and no unknown field that is not a custom
 * field (`_name`). Used to validate real exports.
 */
import { z } from 'zod';

/** An object with the given fields; any other field must be a custom one, starting with `_`. */
function harObject<T extends z.ZodRawShape>(shape: T) {
  return z
    .object(shape)
    .catchall(z.unknown())
    .superRefine((value, ctx) => {
      for (const key of Object.keys(value)) {
        if (!(key in shape) && !key.startsWith('_')) ctx.addIssue({ code: 'custom', path: [key], message: `unknown field "${key}" (custom fields start with _)` });
      }
    });
}

const comment = z.string().optional();
/** A timing: -1 when it does not apply, else a non-negative number of ms. */
const optionalTiming = z.union([z.literal(-1), z.number().nonnegative()]).optional();
const isoDateTime = z.iso.datetime({ offset: true });
const sizeOrUnknown = z.union([z.literal(-1), z.number().int().nonnegative()]);

const nameValue = harObject({ name: z.string(), value: z.string(), comment });

const cookie = harObject({
  name: z.string(),
  value: z.string(),
  path: z.string().optional(),
  domain: z.string().optional(),
  expires: isoDateTime.optional(),
  httpOnly: z.boolean().optional(),
  secure: z.boolean().optional(),
  comment,
});

const param = harObject({ name: z.string(), value: z.string().optional(), fileName: z.string().optional(), contentType: z.string().optional(), comment });

const postData = harObject({ mimeType: z.string(), params: z.array(param).optional(), text: z.string().optional(), comment }).refine(
  (p) => (p.params === undefined) !== (p.text === undefined),
  'postData has either params or text (they are mutually exclusive)',
);

const request = harObject({
  method: z.string().min(1),
  url: z.string().min(1),
  httpVersion: z.string(),
  cookies: z.array(cookie),
  headers: z.array(nameValue),
  queryString: z.array(nameValue),
  postData: postData.optional(),
  headersSize: sizeOrUnknown,
  bodySize: sizeOrUnknown,
  comment,
});

const content = harObject({
  size: z.number().int().nonnegative(),
  compression: z.number().optional(),
  mimeType: z.string(),
  text: z.string().optional(),
  encoding: z.string().optional(),
  comment,
});

const response = harObject({
  status: z.number().int().nonnegative(),
  statusText: z.string(),
  httpVersion: z.string(),
  cookies: z.array(cookie),
  headers: z.array(nameValue),
  content,
  redirectURL: z.string(),
  headersSize: sizeOrUnknown,
  bodySize: sizeOrUnknown,
  comment,
});

const cacheEntry = harObject({ expires: isoDateTime.optional(), lastAccess: isoDateTime, eTag: z.string(), hitCount: z.number().int(), comment });
const cache = harObject({ beforeRequest: cacheEntry.nullable().optional(), afterRequest: cacheEntry.nullable().optional(), comment });

const timings = harObject({
  blocked: optionalTiming,
  dns: optionalTiming,
  connect: optionalTiming,
  send: z.number().nonnegative(),
  wait: z.number().nonnegative(),
  receive: z.number().nonnegative(),
  ssl: optionalTiming,
  comment,
});

const entry = harObject({
  pageref: z.string().optional(),
  startedDateTime: isoDateTime,
  time: z.number().nonnegative(),
  request,
  response,
  cache,
  timings,
  serverIPAddress: z.string().optional(),
  connection: z.string().optional(),
  comment,
}).refine((e) => {
  // The spec: time is the sum of the timings that apply (ssl is already inside connect).
  const t = e.timings;
  const sum = [t.blocked, t.dns, t.connect, t.send, t.wait, t.receive].reduce<number>((s, v) => s + (v === undefined || v === -1 ? 0 : v), 0);
  return Math.abs(sum - e.time) < 0.01;
}, 'entry.time is the sum of its timings');

const page = harObject({
  startedDateTime: isoDateTime,
  id: z.string(),
  title: z.string(),
  pageTimings: harObject({ onContentLoad: optionalTiming, onLoad: optionalTiming, comment }),
  comment,
});

const creator = harObject({ name: z.string(), version: z.string(), comment });

export const har12Schema = harObject({
  log: harObject({
    version: z.literal('1.2'),
    creator,
    browser: creator.optional(),
    pages: z.array(page).optional(),
    entries: z.array(entry),
    comment,
  }),
});

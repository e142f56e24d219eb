/**
 * A table-driven test of one endpoint against every failure the public services show (docs/interface.md
 * §1): a success, 400 with a detail, 401, 403, 404, 422 with a list detail, 429 then success, 5xx
 * then success, a timeout then success, an HTML 502 body, invalid JSON, and a body that fails the
 * schema. Each client test file lists its endpoints once and gets the whole matrix.
 */
import nock from 'nock'
import { describe, expect, test } from 'vitest'
import {
  AuthenticationError,
  HttpRequestError,
  InvalidRequestError,
  NetworkError,
  NotFoundError,
  PermissionDeniedError,
  ResponseParseError,
  ResponseValidationError,
  TimeoutError,
} from '../../src/errors/index.js'
import type { TransportOptions } from '../../src/http/index.js'
import { failure, manualTimers } from './async.js'

/** Options every client factory accepts that make a test fast: no real sleeps, a short timeout (the timeout tests fire their own timers). */
export const fastTransport: TransportOptions = {
  sleep: async () => {},
  random: () => 0.5,
  timeoutMs: 600,
}

export type EndpointCase = {
  /** For example 'A1 getScore'. */
  name: string
  host: string
  method: 'get' | 'post' | 'patch' | 'delete' | 'put'
  /** The exact path the request must use (query not included). */
  path: string
  /** The query the request must carry; `true` accepts any. Default: none. */
  query?: Record<string, string> | true
  /** A body the request must send (nock matches it). */
  requestBody?: unknown
  /** Headers the request must carry (auth). */
  headers?: Record<string, string | RegExp>
  success: { status?: number; body?: unknown }
  /** A body of the right status that the schema must reject; omit for an answer without body. */
  invalidBody?: unknown
  /** Whether the transport may repeat the request (reads). Non-idempotent writes must not be repeated. */
  idempotent: boolean
  /** Calls the endpoint through a client created with `options` spread into its factory. */
  call: (options: TransportOptions) => Promise<unknown>
  /** Checks the parsed result of the success case. */
  expectSuccess: (result: unknown) => void
  /** Statuses the endpoint documents as answers rather than errors (skipped in the matrix). */
  skip?: readonly ('400' | '401' | '403' | '404' | '422')[]
}

function intercept(c: EndpointCase) {
  let interceptor = nock(c.host, c.headers ? { reqheaders: c.headers } : undefined).intercept(
    c.path,
    c.method.toUpperCase(),
    c.requestBody as nock.RequestBodyMatcher | undefined,
  )
  if (c.query === true) interceptor = interceptor.query(true)
  else if (c.query) interceptor = interceptor.query(c.query)
  return interceptor
}

/** Registers the whole failure matrix for each endpoint case. */
export function describeEndpointMatrix(title: string, cases: EndpointCase[]): void {
  describe(title, () => {
    for (const c of cases) {
      describe(c.name, () => {
        const successStatus = c.success.status ?? 200

        test('success: request shape and parsed answer', async () => {
          const scope = intercept(c).reply(successStatus, c.success.body as nock.Body)
          const result = await c.call(fastTransport)
          expect(scope.isDone()).toBe(true)
          c.expectSuccess(result)
        })

        // Each status with the body shape the public services answer it with, and the message the
        // error must carry: that body's, read the one way (`readErrorMessage`).
        const statusCases: [string, number, unknown, new (...args: never[]) => Error, string][] = [
          ['400', 400, { detail: 'Invalid address' }, InvalidRequestError, 'Invalid address'],
          ['401', 401, { detail: 'Invalid API Key.' }, AuthenticationError, 'Invalid API Key.'],
          ['403', 403, { error: 'Forbidden', message: 'Not allowlisted' }, PermissionDeniedError, 'Forbidden: Not allowlisted'],
          ['404', 404, { detail: 'Not found.' }, NotFoundError, 'Not found.'],
          ['422', 422, { detail: [{ loc: ['query', 'x'], msg: 'field required', type: 'missing' }] }, InvalidRequestError, 'query.x: field required'],
        ]
        for (const [key, status, body, ErrorClass, message] of statusCases) {
          if (c.skip?.includes(key as '400')) continue
          test(`${status} is a ${ErrorClass.name} with the server's message`, async () => {
            intercept(c).reply(status, body as nock.Body)
            const error = (await failure(c.call(fastTransport))) as HttpRequestError
            expect(error).toBeInstanceOf(ErrorClass)
            expect(error.status).toBe(status)
            expect(error.serverMessage).toBe(message)
          })
        }

        test('429 then success', async () => {
          intercept(c).reply(429, { detail: 'Request was throttled.' })
          const scope = intercept(c).reply(successStatus, c.success.body as nock.Body)
          c.expectSuccess(await c.call(fastTransport))
          expect(scope.isDone()).toBe(true)
        })

        if (c.idempotent) {
          test('5xx then success', async () => {
            intercept(c).reply(500, { error: 'Internal Server Error' })
            const scope = intercept(c).reply(successStatus, c.success.body as nock.Body)
            c.expectSuccess(await c.call(fastTransport))
            expect(scope.isDone()).toBe(true)
          })

          test('a timeout then success', async () => {
            // The first attempt times out once it has reached the server (the test fires its timer).
            const timers = manualTimers()
            intercept(c).reply(() => (timers.fire(), [successStatus, c.success.body as nock.Body]))
            const scope = intercept(c).reply(successStatus, c.success.body as nock.Body)
            c.expectSuccess(await c.call({ ...fastTransport, timer: timers.timer }))
            expect(scope.isDone()).toBe(true)
          })
        } else {
          test('a 5xx is not repeated (the write may have happened)', async () => {
            intercept(c).reply(500, { error: 'Internal Server Error' })
            const error = (await failure(c.call(fastTransport))) as HttpRequestError
            expect(error).toBeInstanceOf(HttpRequestError)
            expect(error.status).toBe(500)
          })

          test('a timeout is not repeated', async () => {
            const timers = manualTimers()
            intercept(c).reply(() => (timers.fire(), [successStatus, c.success.body as nock.Body]))
            const error = await failure(c.call({ ...fastTransport, timer: timers.timer }))
            expect(error).toBeInstanceOf(TimeoutError)
          })
        }

        test('an HTML 502 page is an HttpRequestError, not a crash', async () => {
          const html = '<html><head><title>502 Bad Gateway</title></head><body></body></html>'
          intercept(c)
            .times(c.idempotent ? 4 : 1)
            .reply(502, html, { 'Content-Type': 'text/html' })
          const error = (await failure(c.call({ ...fastTransport, retry: { limit: 3 } }))) as HttpRequestError
          expect(error).toBeInstanceOf(HttpRequestError)
          expect(error.status).toBe(502)
          expect(error.details).toContain('HTML page')
        })

        test('a network error surfaces as a typed error', async () => {
          intercept(c)
            .times(c.idempotent ? 4 : 1)
            .replyWithError({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' })
          expect(await failure(c.call(fastTransport))).toBeInstanceOf(NetworkError)
        })
        if (c.invalidBody === undefined) return

        test('invalid JSON is a ResponseParseError', async () => {
          intercept(c).reply(successStatus, '{"items": [', { 'Content-Type': 'application/json' })
          expect(await failure(c.call(fastTransport))).toBeInstanceOf(ResponseParseError)
        })

        test('a body that fails the schema is a ResponseValidationError', async () => {
          intercept(c).reply(successStatus, c.invalidBody as nock.Body)
          const error = (await failure(c.call(fastTransport))) as ResponseValidationError
          expect(error).toBeInstanceOf(ResponseValidationError)
          expect(error.issues.length).toBeGreaterThan(0)
        })

      })
    }
  })
}

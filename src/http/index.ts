// The public part of http/: the options every client takes, the rate limiter a user may share
// between clients, and what a request may throw. The transport itself, paging and concurrency
// helpers stay internal.
export { createRateLimiter, type AcquireOptions, type CreateRateLimiterParameters, type RateLimiter, type RateLimitTier, type RateLimitWait } from './rate-limit.js'
export type { Sleep } from './sleep.js'
export { transportDefaults, type RequestErrorType, type RetryOptions, type Transport, type TransportOptions } from './transport.js'

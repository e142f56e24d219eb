export { createSemaphore, mapWithConcurrency, type Semaphore } from './concurrency.js'
export { extractPageToken, paginate, type Page, type PaginationGuards } from './paginate.js'
export {
  createRateLimiter,
  RateBudgetWaitError,
  type AcquireOptions,
  type RateLimitWait,
  getSharedRateLimiter,
  modelTierLimits,
  rateLimitWindowMs,
  resolveTier,
  scoringTierLimits,
  type CreateRateLimiterParameters,
  type RateLimitBudget,
  type RateLimiter,
  type RateLimitTier,
} from './rate-limit.js'
export { defaultSleep, type Sleep } from './sleep.js'
export {
  createTransport,
  defaultMaxResponseBytes,
  parseRetryAfter,
  type RequestErrorType,
  type RequestParameters,
  type RetryOptions,
  type Transport,
  type TransportConfig,
  type TransportOptions,
  type TransportResponse,
} from './transport.js'

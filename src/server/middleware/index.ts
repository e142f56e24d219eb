export { adminAuth, type AdminAuthOptions } from './admin.js'
export { apiKeyAuth, invalidApiKeyDetail, type ApiKeyAuthOptions, type ApiKeyVariables } from './api-key.js'
export { latency } from './latency.js'
export { createRateLimitCounter, rateLimit, type RateLimitCounter, type RateLimitOptions } from './rate-limit.js'

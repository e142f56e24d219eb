/** score-api's eslint config (a flat config array); the package ships no types. */
declare module '@snapshot-labs/eslint-config' {
  import type { Linter } from 'eslint'
  const config: Linter.Config[]
  export default config
}

/**
 * The error a rule throws for an input it cannot judge.
 *
 * It imports nothing: `npm run strategies:rules` copies it verbatim into each score-api folder that
 * uses it. Written in score-api's prettier style; compiles under TypeScript 4.7 (CommonJS) as under
 * the package's own settings.
 */

/** The error a rule throws for an input it cannot judge; `parameter` names the input. */
export class RuleParameterError extends Error {
  readonly parameter: string;
  readonly reason: string;
  constructor(parameter: string, reason: string) {
    super(`Parameter "${parameter}" is invalid: ${reason}`);
    this.name = 'RuleParameterError';
    this.parameter = parameter;
    this.reason = reason;
  }
}

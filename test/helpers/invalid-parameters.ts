/** A table of calls each refused before any request with an InvalidParameterError naming one parameter. */
import { expect, test } from 'vitest'
import { InvalidParameterError } from '../../src/errors/index.js'
import { failure } from './async.js'

/** One case: a name for the test, the call, and the parameter its error must name. */
export type InvalidParameterCase = readonly [name: string, call: () => Promise<unknown>, parameter: string]

/** One test per case: `<name> is an InvalidParameterError`, whose `parameter` is the one named. */
export function testInvalidParameters(cases: readonly InvalidParameterCase[]): void {
  test.each(cases)('%s is an InvalidParameterError', async (_name, call, parameter) => {
    const error = (await failure(call())) as InvalidParameterError
    expect(error).toBeInstanceOf(InvalidParameterError)
    expect(error.parameter).toBe(parameter)
  })
}

/**
 * human-verification validation: only addresses that pass the human-verification rule at the
 * snapshot may vote or propose (a Human ID credential, else a passing Passport score). The rule is
 * the `personhood` package's (`humanVerificationStrategy`, judged by `validateWithStrategy`); this
 * module binds it to score-api's Validation class, its providers and the score server's
 * environment (HUMAN_ID_* and PASSPORT_* variables).
 */
import { humanVerificationStrategy, readStrategyEnvironment, validateWithStrategy } from 'personhood'
import { getProvider } from '../../utils'
import Validation from '../validation'

export default class extends Validation {
  public id = 'human-verification'
  public github = 'personhood-dao'
  public version = '0.1.0'
  public title = 'Human verification'
  public description = 'Only verified humans may vote or propose: a Human ID credential at the snapshot, else a passing Passport score.'

  protected async doValidate(customAuthor: string): Promise<boolean> {
    return validateWithStrategy({
      definition: humanVerificationStrategy,
      author: customAuthor,
      network: this.network,
      provider: getProvider(this.network),
      snapshot: this.snapshot ?? 'latest',
      params: this.params,
      context: readStrategyEnvironment(process.env),
    })
  }
}

/**
 * score-api's validation base class (snapshot-labs/score-api,
 * `src/strategies/validations/validation.ts`), reduced to what a validation folder relies on: the
 * constructor's arguments as fields, and `validate()` refusing a malformed author before calling
 * `doValidate`. The test host puts it where score-api has it, so a folder runs here as it will there.
 */
import { isAddress } from 'viem'

export default class Validation {
  public id = ''
  public github = ''
  public version = ''
  public title = ''
  public description = ''

  constructor(
    public author: string,
    public space: string,
    public network: string,
    public snapshot: number | 'latest',
    public params: unknown,
  ) {}

  async validate(customAuthor = this.author): Promise<boolean> {
    if (!isAddress(customAuthor, { strict: false })) return false
    return this.doValidate(customAuthor)
  }

  protected async doValidate(_customAuthor: string): Promise<boolean> {
    return true
  }
}

import { getProvider, getScoresDirect } from '../../utils';
import Validation from '../validation';

export default class extends Validation {
  public id = 'human-verification';
  public github = 'personhood-dao';
  public version = '1.0.0';
  public title = 'Human verification';
  public description =
    'Only verified humans may vote or propose: a Human ID credential at the snapshot, else a passing Passport score.';

  // The author passes when the human-verification strategy scores it above 0 at the snapshot. A
  // malformed author does not pass (the Validation class checks it first); a source that fails
  // throws, so nobody is turned away because a service was down.
  protected async doValidate(customAuthor: string): Promise<boolean> {
    const [scores] = await getScoresDirect(
      this.space,
      [
        {
          name: 'human-verification',
          network: this.network,
          params: this.params
        }
      ],
      this.network,
      getProvider(this.network),
      [customAuthor],
      this.snapshot || 'latest'
    );
    return Object.values(scores).some(score => score > 0);
  }
}

// The test host's validation base class, as score-api's src/strategies/validations/validation.ts
// behaves: the constructor's arguments become fields, and validate() answers false for an author
// that is not an address of a supported protocol before calling the subclass's doValidate.
import snapshot from '@snapshot-labs/snapshot.js';

type Protocol = 'evm' | 'starknet';

export default class Validation {
  public id = '';
  public github = '';
  public version = '';
  public title = '';
  public description = '';
  public supportedProtocols: Protocol[] = ['evm'];
  public hasInnerStrategies = false;

  public author: string;
  public space: string;
  public network: string;
  public snapshot: number | 'latest';
  public params: any;

  constructor(
    author: string,
    space: string,
    network: string,
    snapshotBlock: number | 'latest',
    params: any
  ) {
    this.author = author;
    this.space = space;
    this.network = network;
    this.snapshot = snapshotBlock;
    this.params = params;
  }

  async validate(customAuthor = this.author): Promise<boolean> {
    if (!this.isSupportedAddress(customAuthor)) return false;
    return this.doValidate(customAuthor);
  }

  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  protected async doValidate(_customAuthor: string): Promise<boolean> {
    return true;
  }

  private isSupportedAddress(address: string): boolean {
    try {
      const formatted = snapshot.utils.getFormattedAddress(address);
      if (snapshot.utils.isEvmAddress(formatted)) {
        return this.supportedProtocols.includes('evm');
      }
      return (
        snapshot.utils.isStarknetAddress(formatted) &&
        this.supportedProtocols.includes('starknet')
      );
    } catch {
      return false;
    }
  }
}

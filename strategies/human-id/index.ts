import { defaultAbiCoder } from '@ethersproject/abi';
import { getAddress } from '@ethersproject/address';
import {
  checkCleanHandsRow,
  checkOnchainCleanHandsAttestation,
  circuitIds,
  classifySbt,
  cleanHandsAttester,
  cleanHandsOnchainSchemaId,
  cleanHandsSchemaId,
  defaultActionId,
  hubAddresses,
  hubBlockAt,
  isOnHubClock,
  issuers,
  judgeHumanIdCredential,
  matchCredentials,
  permanentStores,
  signProtocolAddress
} from './rules';
import { customFetch, getProvider, getSnapshots } from '../../utils';

export const author = 'personhood-dao';
export const version = '1.0.0';

const CREDENTIALS = ['gov-id', 'phone', 'biometrics', 'clean-hands'];
const INDEX_URL = 'https://mainnet-rpc.sign.global';
// Clean hands for many voters reads the index's listing (or one filtered
// listing a voter, when fewer); a cold call that needs more throws.
const MAX_INDEX_READS = 50;
const ZERO = '0x0000000000000000000000000000000000000000';

// One eth_call of the reader sends at most 49,152 bytes and returns at most
// 24,576 (a node refuses more: the limits on a contract's creation code and
// size), and is planned under 45M gas (geth's eth_call cap is 50M). Gas per
// voter: the dearer of holding a valid SBT and holding none, measured on the
// local chain (README), and a twentieth more. A voter whose SBT getSBT returns but
// fails costs more (every fallback runs); a chunk of mostly such voters can
// run out of gas, and is then read again in two halves.
const MAX_BYTES = 24576;
const MAX_INPUT = 49152;
const MAX_GAS = 45000000;
const GAS_CALL = 300000;
const PARALLEL = 3;
const GAS_ATTESTATION = 51000;
const GAS_SBT = { 'gov-id': 34000, phone: 24000, biometrics: 24000 };

// Compiled from ./reader.sol by `npm run strategies:reader` (solc 0.8.28,
// optimizer 200 runs, EVM cancun); a test compiles it and compares the bytes.
const readerCode =
  '0x608060405234801561000f575f5ffd5b5060405161111738038061111783398101604081905261002e91610c7d565b5f805b855181101561007d5785818151811061004c5761004c610d66565b602002602001015160600151610063576002610066565b60045b6100739060ff1683610d8e565b9150600101610031565b505f6014855161008d9190610da1565b90505f600a845161009e9190610da1565b90505f816100ac8585610dc0565b6100b7906060610d8e565b6100c19190610d8e565b6001600160401b038111156100d8576100d86109ee565b6040519080825280601f01601f191660200182016040528015610102576020820181803683370190505b5042602082015243604082015246606082015290505f610124828b8b8b61013b565b90506101338282898b8a6101bf565b815160208301f35b6040516060905f5b601484516101519190610da1565b8110156101b5575f6101638583610255565b90505f5b86518110156101ab5761019c89868a8a858151811061018857610188610d66565b6020026020010151866102b560201b60201c565b60408590529450600101610167565b5050600101610143565b5050949350505050565b6040515f5b600a83516101d29190610da1565b81101561024c57600a810283016020015160c081901c9060b01c61ffff165f6101fb8783610255565b90506102088884836103eb565b60f81b8a610216868c610d8e565b8151811061022657610226610d66565b60200101906001600160f81b03191690815f1a90535050506040839052506001016101c4565b50505050505050565b5f601483516102649190610da1565b82106102a65760405162461bcd60e51b815260206004820152600d60248201526c37379039bab1b4103b37ba32b960991b604482015260640160405180910390fd5b50601402016020015160601c90565b5f80806102c386868661055b565b9092509050866102d4600282610d8e565b975085606001511561031a575f82610300576102fb8889604001518861055b60201b60201c565b935090505b61030b8a8a8361078e565b61031660028a610d8e565b9850505b81158015610334575060408601516001600160a01b031615155b156103d35760408087015160208901519151634b12468960e11b81526001600160a01b03888116600483015260248201939093525f92909116906396248d1290604401602060405180830381865afa158015610392573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906103b69190610dd7565b9050806103c5576101006103c9565b6103005b61ffff1684179350505b6103de89828561078e565b5095979650505050505050565b825160405162c44a5160e71b81526001600160401b03841660048201525f9182916001600160a01b03909116906362252880906024015f60405180830381865afa15801561043b573d5f5f3e3d5ffd5b505050506040513d5f823e601f3d908101601f191682016040526104629190810190610e85565b905080604001516001600160401b03165f14158061048c575060808101516001600160a01b031615155b15610498576001821791505b84602001516001600160401b0316815f01516001600160401b0316036104bf576002821791505b84604001516001600160a01b031681608001516001600160a01b0316036104e7576004821791505b8060e00151156104f8576008821791505b428160a001516001600160401b03161115610514576010821791505b61010081015151156105535761054e8161010001515f8151811061053a5761053a610d66565b6020026020010151846107fa60201b60201c565b821791505b509392505050565b82518251604051636f8a8c6960e01b81526001600160a01b03848116600483015260248201929092525f9283921690636f8a8c69906044015f60405180830381865afa9250505080156105cf57506040513d5f823e601f3d908101601f191682016040526105cc9190810190610fa6565b60015b6106ba57845184516040516001600160601b0319606087901b16602082015260348101919091525f9182916001600160a01b03909116906335abf9c990605401604051602081830303815290604052805190602001206040518263ffffffff1660e01b815260040161064391815260200190565b6040805180830381865afa15801561065d573d5f5f3e3d5ffd5b505050506040513d601f19601f820116820180604052508101906106819190611083565b91509150600193508015610696576004841793505b428210156106a5576008841793505b815f036106b3576010841793505b5050610786565b6020810151604082015160039450156106d4576004841793505b81514211156106e4576008841793505b60048151111561077d5760108417935085602001518160048151811061070c5761070c610d66565b602002602001015103610720576020841793505b86602001518160028151811061073857610738610d66565b60200260200101510361074c576040841793505b846001600160a01b03168160018151811061076957610769610d66565b60200260200101510361077d576080841793505b8360f314925050505b935093915050565b600881901c60f81b8383815181106107a8576107a8610d66565b60200101906001600160f81b03191690815f1a90535060f881901b836107cf846001610d8e565b815181106107df576107df610d66565b60200101906001600160f81b03191690815f1a905350505050565b5f60408351101561080c57505f6109e8565b60208381015160408501519091821461082a576040925050506109e8565b80602a14158061083b5750606a8551105b1561084a575f925050506109e8565b8460408151811061085d5761085d610d66565b6020910101516001600160f81b031916600360fc1b1415806108d657508460418151811061088d5761088d610d66565b6020910101516001600160f81b031916600f60fb1b148015906108d65750846041815181106108be576108be610d66565b6020910101516001600160f81b031916600b60fb1b14155b156108e5575f925050506109e8565b5f60425b606a8110156109bf575f87828151811061090557610905610d66565b016020015160f81c90505f60308210801590610925575060398260ff1611155b1561093c576109356030836110ad565b905061099a565b60618260ff1610158015610954575060668260ff1611155b15610964576109356057836110ad565b60418260ff161015801561097c575060468260ff1611155b1561098c576109356037836110ad565b5f96505050505050506109e8565b60ff81166109a98560106110c6565b6109b391906110f7565b935050506001016108e9565b50846001600160a01b0316816001600160a01b0316146109df575f6109e2565b60205b93505050505b92915050565b634e487b7160e01b5f52604160045260245ffd5b604051606081016001600160401b0381118282101715610a2457610a246109ee565b60405290565b60405161014081016001600160401b0381118282101715610a2457610a246109ee565b604051601f8201601f191681016001600160401b0381118282101715610a7557610a756109ee565b604052919050565b80516001600160a01b0381168114610a93575f5ffd5b919050565b80518015158114610a93575f5ffd5b5f60808284031215610ab7575f5ffd5b604051608081016001600160401b0381118282101715610ad957610ad96109ee565b604090815283518252602080850151908301529091508190610afc908401610a7d565b6040820152610b0d60608401610a98565b60608201525092915050565b5f6001600160401b03821115610b3157610b316109ee565b5060051b60200190565b5f82601f830112610b4a575f5ffd5b8151610b5d610b5882610b19565b610a4d565b8082825260208201915060208360071b860101925085831115610b7e575f5ffd5b602085015b83811015610ba557610b958782610aa7565b8352602090920191608001610b83565b5095945050505050565b5f82601f830112610bbe575f5ffd5b81516001600160401b03811115610bd757610bd76109ee565b610bea601f8201601f1916602001610a4d565b818152846020838601011115610bfe575f5ffd5b8160208501602083015e5f918101602001919091529392505050565b80516001600160401b0381168114610a93575f5ffd5b5f60608284031215610c40575f5ffd5b610c48610a02565b9050610c5382610a7d565b8152610c6160208301610c1a565b6020820152610c7260408301610a7d565b604082015292915050565b5f5f5f5f5f858703610180811215610c93575f5ffd5b60c0811215610ca0575f5ffd5b50610ca9610a02565b610cb287610a7d565b815260208781015190820152610ccb8860408901610aa7565b604082015260c08701519095506001600160401b03811115610ceb575f5ffd5b610cf788828901610b3b565b60e088015190955090506001600160401b03811115610d14575f5ffd5b610d2088828901610baf565b935050610d31876101008801610c30565b6101608701519092506001600160401b03811115610d4d575f5ffd5b610d5988828901610baf565b9150509295509295909350565b634e487b7160e01b5f52603260045260245ffd5b634e487b7160e01b5f52601160045260245ffd5b808201808211156109e8576109e8610d7a565b5f82610dbb57634e487b7160e01b5f52601260045260245ffd5b500490565b80820281158282048414176109e8576109e8610d7a565b5f60208284031215610de7575f5ffd5b610df082610a98565b9392505050565b805160ff81168114610a93575f5ffd5b5f82601f830112610e16575f5ffd5b8151610e24610b5882610b19565b8082825260208201915060208360051b860101925085831115610e45575f5ffd5b602085015b83811015610ba55780516001600160401b03811115610e67575f5ffd5b610e76886020838a0101610baf565b84525060209283019201610e4a565b5f60208284031215610e95575f5ffd5b81516001600160401b03811115610eaa575f5ffd5b82016101408185031215610ebc575f5ffd5b610ec4610a2a565b610ecd82610c1a565b8152610edb60208301610c1a565b6020820152610eec60408301610c1a565b6040820152610efd60608301610c1a565b6060820152610f0e60808301610a7d565b6080820152610f1f60a08301610c1a565b60a0820152610f3060c08301610df7565b60c0820152610f4160e08301610a98565b60e08201526101008201516001600160401b03811115610f5f575f5ffd5b610f6b86828501610e07565b610100830152506101208201516001600160401b03811115610f8b575f5ffd5b610f9786828501610baf565b61012083015250949350505050565b5f60208284031215610fb6575f5ffd5b81516001600160401b03811115610fcb575f5ffd5b820160608185031215610fdc575f5ffd5b610fe4610a02565b8151815260208201516001600160401b03811115611000575f5ffd5b8201601f81018613611010575f5ffd5b805161101e610b5882610b19565b8082825260208201915060208360051b85010192508883111561103f575f5ffd5b6020840193505b82841015611061578351825260209384019390910190611046565b60208501525061107691505060408301610a98565b6040820152949350505050565b5f5f60408385031215611094575f5ffd5b825191506110a460208401610a98565b90509250929050565b60ff82811682821603908111156109e8576109e8610d7a565b6001600160a01b038181168382168181029092169181830481148215176110ef576110ef610d7a565b505092915050565b6001600160a01b0381811683821601908111156109e8576109e8610d7a56fe';

const READER_ARGS = [
  'tuple(address,uint256,tuple(bytes32,uint256,address,bool))',
  'tuple(bytes32,uint256,address,bool)[]',
  'bytes',
  'tuple(address,uint64,address)',
  'bytes'
];

export type CredentialVerdict = {
  valid: boolean;
  // 'valid', 'legacy' (a permanent store) or why not: 'none', 'expired',
  // 'revoked', 'wrong-issuer', 'wrong-action', 'wrong-recipient',
  // 'wrong-schema', 'wrong-attester', 'malformed'
  reason: string;
};

export type HumanVerdict = {
  // The credentials matched ('any' or 'all') at the snapshot.
  verified: boolean;
  // One verdict per asked credential.
  credentials: Record<string, CredentialVerdict>;
};

export type HumanVerdicts = {
  // The hub chain's block the verdicts were judged at.
  block: { chainId: number; number: number; timestamp: number };
  // By checksummed address.
  voters: Record<string, HumanVerdict>;
};

type Row = {
  attestationId: string;
  attester: string;
  fullSchemaId: string;
  recipients: string[];
  revoked: boolean;
  validUntil: string | number;
};

function readOptions(options: any) {
  const credentials: string[] = options?.credentials ?? ['gov-id'];
  if (
    !Array.isArray(credentials) ||
    credentials.length === 0 ||
    credentials.some(credential => !CREDENTIALS.includes(credential))
  ) {
    throw new Error(`human-id: credentials must be some of ${CREDENTIALS}`);
  }
  const match = options?.match ?? 'any';
  if (match !== 'any' && match !== 'all') {
    throw new Error("human-id: match must be 'any' or 'all'");
  }
  const actionId = String(options?.actionId ?? defaultActionId);
  if (!/^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/.test(actionId)) {
    throw new Error(`human-id: actionId ${actionId} is not a number`);
  }
  const sandbox = options?.sandbox === true;
  if (sandbox && credentials.includes('clean-hands')) {
    throw new Error('human-id: clean-hands lives on Optimism, not the sandbox');
  }
  return {
    credentials: [...new Set(credentials)],
    match: match as 'any' | 'all',
    actionId: BigInt(actionId),
    sandbox
  };
}

// The attestation index, listed by schema and attester (newest first). The
// listing is kept per module, so a warm call reads only its new rows. A row
// only names a candidate: the reader confirms each one on chain at the block.
const listings: Record<string, Row[]> = {};

async function indexPage(url: string, page: number, recipient?: string) {
  const query = new URLSearchParams({
    schemaId: cleanHandsSchemaId,
    attester: cleanHandsAttester,
    page: String(page)
  });
  if (recipient) query.set('recipient', recipient);
  const where = `${url}/api/index/attestations?${query}`;
  let response;
  try {
    response = await customFetch(where, {}, 20000);
  } catch (err: any) {
    throw new Error(
      `human-id: attestation index ${url}: ${err?.message ?? err}`
    );
  }
  const body = response.ok ? await response.json().catch(() => null) : null;
  const data = body?.data;
  if (!data || !Array.isArray(data.rows) || typeof data.total !== 'number') {
    throw new Error(
      `human-id: attestation index ${url} answered ${response.status} without rows`
    );
  }
  const size = data.size > 0 ? data.size : data.rows.length || 1;
  const pages = Math.ceil(data.total / size);
  return { total: data.total as number, pages, rows: data.rows as Row[] };
}

async function pagesAfter(url: string, pages: number, recipient?: string) {
  const rest = Array.from({ length: Math.max(0, pages - 1) }, (_, i) =>
    indexPage(url, i + 2, recipient)
  );
  return (await Promise.all(rest)).flatMap(page => page.rows);
}

async function allRows(url: string, recipient?: string): Promise<Row[]> {
  const first = await indexPage(url, 1, recipient);
  return first.rows.concat(await pagesAfter(url, first.pages, recipient));
}

// The whole listing: the cache plus the pages before its newest row; null when
// reading it cold would take more requests than one per voter.
async function listing(url: string, voters: number): Promise<Row[] | null> {
  const key = `${url} ${cleanHandsSchemaId} ${cleanHandsAttester}`;
  const cached = listings[key];
  const first = await indexPage(url, 1);
  let rows = first.rows;
  if (cached) {
    const known = new Set(cached.map(row => row.attestationId));
    const newer = first.total - cached.length;
    for (let page = 2; newer >= 0 && rows.length <= newer; page++) {
      if (page > first.pages) break;
      rows = rows.concat((await indexPage(url, page)).rows);
    }
    rows =
      newer >= 0 && known.has(rows[newer]?.attestationId)
        ? rows.slice(0, newer).concat(cached)
        : first.rows.concat(await pagesAfter(url, first.pages));
  } else {
    const reads = Math.min(first.pages - 1, voters);
    if (reads > MAX_INDEX_READS) {
      const [needed, total, most] = [
        reads + 1,
        first.total,
        MAX_INDEX_READS + 1
      ];
      throw new Error(
        `human-id: clean hands for ${voters} voters needs ${needed} requests to the attestation index (its listing holds ${total} attestations); a call makes at most ${most}. Ask for fewer voters, or serve the strategy from the personhood strategy server (docs/strategy-server.md), which keeps the listing`
      );
    }
    if (first.pages - 1 > voters) return null;
    rows = rows.concat(await pagesAfter(url, first.pages));
  }
  listings[key] = rows;
  return rows;
}

// Index rows by voter (lower case): the listing filtered by recipient for one
// voter, else the whole listing (or, when longer, one filtered read a voter).
async function cleanHandsRows(voters: string[]) {
  const url = process.env.ATTESTATION_INDEX_URL || INDEX_URL;
  let rows = voters.length > 1 ? await listing(url, voters.length) : null;
  if (!rows) {
    rows = [];
    for (let i = 0; i < voters.length; i += 10) {
      const batch = voters.slice(i, i + 10);
      const read = await Promise.all(batch.map(v => allRows(url, v)));
      rows.push(...read.flat());
    }
  }
  const byVoter: Record<string, Row[]> = {};
  voters.forEach(voter => (byVoter[voter.toLowerCase()] = []));
  for (const row of rows) {
    const recipients = Array.isArray(row?.recipients) ? row.recipients : [];
    const named = new Set(recipients.map(r => String(r).toLowerCase()));
    for (const recipient of named) {
      if (byVoter[recipient] && !byVoter[recipient].includes(row)) {
        byVoter[recipient].push(row);
      }
    }
  }
  return byVoter;
}

// A row as the index should send it (the library's schema); any other row is
// judged malformed.
function wellFormed(row: any): boolean {
  const text = value => typeof value === 'string';
  const numeric = value => typeof value === 'number' || text(value);
  return (
    typeof row === 'object' &&
    row !== null &&
    text(row.fullSchemaId) &&
    text(row.attester) &&
    typeof row.revoked === 'boolean' &&
    numeric(row.validUntil) &&
    (row.attestationId === undefined || text(row.attestationId)) &&
    (row.schemaId === undefined || text(row.schemaId)) &&
    (row.attestTimestamp === undefined || numeric(row.attestTimestamp)) &&
    Array.isArray(row.recipients) &&
    row.recipients.every(text)
  );
}

// The attestation id of a well-formed row, as a uint64.
function attestationId(row: Row): bigint | undefined {
  if (!wellFormed(row)) return undefined;
  const id = typeof row.attestationId === 'string' ? row.attestationId : '';
  const value = /^0x[0-9a-fA-F]{1,16}$/.test(id) ? BigInt(id) : undefined;
  return value !== undefined && value < 2n ** 64n ? value : undefined;
}

// The reader's answer (see reader.sol): three words, then packed records.
function word(data: string, index: number): bigint {
  return BigInt(`0x${data.slice(2 + index * 64, 66 + index * 64)}`);
}

function bits(data: string, at: number, size: number): number {
  return parseInt(data.slice(2 + at * 2, 2 + (at + size) * 2), 16);
}

// One SBT record as the rule reads it. The reader compared the values with the
// expected ones; the values below stand for those comparisons.
function sbtReads(flags: number, at: bigint, voter: bigint, expect) {
  const expiry = flags & 8 ? at - 1n : at;
  const revoked = (flags & 4) !== 0;
  if (flags & 2) {
    const values =
      flags & 16
        ? [
            0n,
            flags & 128 ? voter : voter + 1n,
            flags & 64 ? expect.actionId : expect.actionId + 1n,
            0n,
            flags & 32 ? expect.issuer : expect.issuer + 1n
          ]
        : [];
    return {
      getSBT: {
        status: 'success' as const,
        expiry,
        publicValues: values,
        revoked
      }
    };
  }
  return {
    getSBT: { status: 'reverted' as const },
    sbtOwners: { expiry: flags & 16 ? 0n : expiry, revoked }
  };
}

function judgeSbt(flags, at, voter, circuit, actionId) {
  if (!(flags & 1)) {
    throw new Error(`human-id: the reader skipped ${circuit} of ${voter}`);
  }
  const issuer = BigInt(issuers[circuit]);
  const verdict = classifySbt({
    ...sbtReads(flags, at, BigInt(voter), { actionId, issuer }),
    blockTimestamp: at,
    actionId,
    issuer,
    recipient: BigInt(voter)
  });
  if (verdict.status !== 'classified') {
    throw new Error(
      `human-id: the Human ID hub contradicts itself on ${circuit} of ${voter}`
    );
  }
  return verdict;
}

// The clean-hands verdict: the row that got furthest through the checks (the
// index rule, then the attestation on chain) gives the reason.
const RANK = [
  'malformed',
  'wrong-schema',
  'wrong-attester',
  'wrong-recipient',
  'revoked',
  'expired',
  'valid',
  'none',
  'chain:wrong-schema',
  'chain:wrong-attester',
  'chain:revoked',
  'chain:expired',
  'chain:wrong-recipient',
  'chain:valid'
];

function judgeCleanHands(voter, rows: Row[], onchain, at: bigint) {
  const schemaId = cleanHandsOnchainSchemaId;
  let best = { rank: -1, reason: 'none' };
  for (const row of rows) {
    const id = attestationId(row);
    let reason: string = wellFormed(row)
      ? checkCleanHandsRow(
          { ...row, isReceiver: true },
          { now: at, revocation: 'onchain' }
        )
      : 'malformed';
    if (reason === 'valid' && id === undefined) reason = 'malformed';
    let rank = RANK.indexOf(reason);
    if (reason === 'valid') {
      const flags = onchain(id);
      if (flags & 64) {
        throw new Error(
          `human-id: attestation ${id}: recipients[0] is not an ABI string`
        );
      }
      reason = checkOnchainCleanHandsAttestation({
        attestation: {
          schemaId: flags & 2 ? schemaId : schemaId + 1n,
          attestTimestamp: flags & 1 ? 1n : 0n,
          attester: flags & 4 ? cleanHandsAttester : ZERO,
          validUntil: flags & 16 ? at + 1n : at,
          revoked: (flags & 8) !== 0,
          recipients: ['0x']
        },
        address: voter,
        blockTimestamp: at,
        decodeRecipient: () => (flags & 32 ? voter : undefined)
      });
      rank = RANK.indexOf(reason === 'none' ? 'none' : `chain:${reason}`);
    }
    if (rank > best.rank) best = { rank, reason };
  }
  return { valid: best.reason === 'valid', reason: best.reason };
}

// The snapshot's time by network and block: a past block's time does not
// change, so it is kept for the process (the last 1,000).
const snapshotTimes = new Map<string, number>();
// Hub chains this process saw off their clock: mapped by the blockfinder.
const offClock = new Set<string>();

/** The snapshot block's time on the space's network, Unix seconds. */
export async function snapshotTime(
  network: string,
  provider,
  snapshot,
  name = 'human-id'
) {
  const key = `${network}:${snapshot}`;
  let time = snapshotTimes.get(key);
  if (time !== undefined) return time;
  let block;
  try {
    const tag = snapshot === 'latest' ? 'latest' : Number(snapshot);
    block = await provider.getBlock(tag);
  } catch (err: any) {
    throw new Error(
      `${name}: the header of block ${snapshot} of network ${network}: ${
        err?.message ?? err
      }`
    );
  }
  time = Number(block?.timestamp);
  if (!Number.isSafeInteger(time) || time <= 0) {
    throw new Error(`${name}: network ${network} has no block ${snapshot}`);
  }
  if (snapshot === 'latest') return time;
  if (snapshotTimes.size >= 1000) {
    snapshotTimes.delete(snapshotTimes.keys().next().value);
  }
  snapshotTimes.set(key, time);
  return time;
}

// The hub chain's block at the snapshot's time, by score-api's blockfinder.
async function blockfinder(network, snapshot, provider, hubNetwork: string) {
  let blocks;
  try {
    blocks = await getSnapshots(network, snapshot, provider, [hubNetwork]);
  } catch (err: any) {
    const cause = err?.message ?? err;
    throw new Error(
      `human-id: getSnapshots (blockfinder) failed to map block ${snapshot} of network ${network} to network ${hubNetwork}: ${cause}`
    );
  }
  const blockTag = blocks?.[hubNetwork];
  if (blockTag !== 'latest' && !Number.isInteger(Number(blockTag))) {
    throw new Error(
      `human-id: getSnapshots (blockfinder) has no block of network ${hubNetwork} for block ${snapshot} of network ${network}`
    );
  }
  return blockTag;
}

type Chunk = {
  voters: string[];
  pairs: [bigint, string][];
  // The plan: gas, bytes sent and bytes returned.
  gas: number;
  input: number;
  bytes: number;
};

/**
 * Per voter (checksummed), whether the asked Human ID credentials match at the
 * snapshot, and each credential's verdict: for human-id and the strategies
 * that reuse it. Throws an Error naming the source that failed (the hub chain,
 * the attestation index): never a silent 0.
 */
export async function verifyHumans(
  network: string,
  provider,
  addresses: string[],
  options,
  snapshot
): Promise<HumanVerdicts> {
  const { credentials, match, actionId, sandbox } = readOptions(options);
  const hubNetwork = sandbox ? '84532' : '10';
  const voters = [...new Set(addresses.map(address => getAddress(address)))];
  // A space on another network: the hub chain's block at the snapshot's
  // time, by the hub chain's clock (checked by the first read), else by
  // score-api's blockfinder.
  const away = network !== hubNetwork && snapshot !== 'latest';
  const hubProvider =
    network === hubNetwork ? provider : getProvider(hubNetwork);
  const time = away ? await snapshotTime(network, provider, snapshot) : 0;
  let blockTag = network === hubNetwork || !away ? snapshot : undefined;
  if (away && !offClock.has(hubNetwork)) {
    blockTag = hubBlockAt(hubNetwork, time);
  }
  const byClock = away && blockTag !== undefined;
  if (away && blockTag === undefined) {
    blockTag = await blockfinder(network, snapshot, provider, hubNetwork);
  }
  const sbts = credentials.filter(c => c !== 'clean-hands');
  const circuits = sbts.map(c => [
    circuitIds[c],
    BigInt(issuers[c]),
    (!sandbox && permanentStores[c]) || ZERO,
    c === 'gov-id'
  ]);
  const passport = [circuitIds['zk-passport'], issuers['zk-passport'], ZERO];
  const perVoter = sbts.reduce((n, c) => n + (c === 'gov-id' ? 4 : 2), 0);
  const rows = credentials.includes('clean-hands')
    ? await cleanHandsRows(voters)
    : {};

  // Chunks of voters, with their attestations, within one call's limits.
  const gasPerVoter = sbts.reduce((sum, c) => sum + GAS_SBT[c], 0);
  const plan = (chunk: Chunk) => {
    chunk.gas = GAS_CALL + chunk.voters.length * gasPerVoter;
    chunk.gas += chunk.pairs.length * GAS_ATTESTATION;
    chunk.bytes = 96 + chunk.voters.length * perVoter + chunk.pairs.length;
    chunk.input = readerCode.length / 2 + 1024;
    chunk.input += chunk.voters.length * 20 + chunk.pairs.length * 10;
    return chunk;
  };
  const chunks: Chunk[] = [];
  const empty = (): Chunk => ({
    voters: [],
    pairs: [],
    gas: 0,
    input: 0,
    bytes: 0
  });
  let chunk = empty();
  for (const voter of voters) {
    const ids = (rows[voter.toLowerCase()] ?? []).map(attestationId);
    const mine = [...new Set(ids.filter(id => id !== undefined))];
    const voterCount = chunk.voters.length + 1;
    const pairCount = chunk.pairs.length + mine.length;
    const bytes = 96 + voterCount * perVoter + pairCount;
    const input =
      readerCode.length / 2 + 1024 + voterCount * 20 + pairCount * 10;
    const gas =
      GAS_CALL + voterCount * gasPerVoter + pairCount * GAS_ATTESTATION;
    if (
      chunk.voters.length > 0 &&
      (bytes > MAX_BYTES || input > MAX_INPUT || gas > MAX_GAS)
    ) {
      chunks.push(chunk);
      chunk = empty();
    }
    chunk.voters.push(voter);
    for (const id of mine) chunk.pairs.push([id as bigint, voter]);
    plan(chunk);
  }
  chunks.push(chunk);

  const read = async (chunk: Chunk, at: number | string, which: string) => {
    const { voters, pairs } = chunk;
    const hex = (value, digits: number) =>
      value.toString(16).padStart(digits, '0');
    const args = defaultAbiCoder.encode(READER_ARGS, [
      [hubAddresses[hubNetwork], actionId, [...passport, false]],
      circuits,
      `0x${voters.map(voter => voter.slice(2)).join('')}`,
      [
        sandbox ? ZERO : signProtocolAddress,
        cleanHandsOnchainSchemaId,
        cleanHandsAttester
      ],
      `0x${pairs
        .map(([id, voter]) => hex(id, 16) + hex(voters.indexOf(voter), 4))
        .join('')}`
    ]);
    let data: string;
    try {
      data = await hubProvider.call({ data: readerCode + args.slice(2) }, at);
    } catch (err: any) {
      // ethers names every failed eth_call "missing revert data in call
      // exception", a timeout too: what happened is in its `error`.
      const inner = err?.error;
      let cause = inner?.reason ?? inner?.message ?? err?.message ?? err;
      if (inner?.code === 'TIMEOUT') {
        cause = `no answer within the provider's ${inner.timeout} ms`;
      }
      const planned = `${voters.length} voters, ${pairs.length} attestations, planned ${chunk.gas} gas, ${chunk.input} bytes sent, ${chunk.bytes} returned`;
      const error: any = new Error(
        `human-id: the reader call ${which} (${planned}) on chain ${hubNetwork} at block ${at} failed: ${cause}`
      );
      error.gas = /gas/i.test(String(cause));
      throw error;
    }
    const size = 96 + voters.length * perVoter + pairs.length;
    if (data.length !== 2 + size * 2) {
      const [got, want] = [data.length, size * 2];
      const error: any = new Error(
        `human-id: the reader call ${which} on chain ${hubNetwork} answered ${got} hex digits, not ${want}`
      );
      // A node may answer a creation that ran out of gas with nothing.
      error.gas = data === '0x';
      throw error;
    }
    return data;
  };
  // A chunk whose voters cost more gas than planned (most hold an SBT that
  // fails, so every fallback runs) is read again once, in two halves.
  const call = async (chunk: Chunk, at: number | string) => {
    const which = `${chunks.indexOf(chunk) + 1} of ${chunks.length}`;
    try {
      return await read(chunk, at, which);
    } catch (err: any) {
      if (!err.gas || chunk.voters.length < 2) throw err;
    }
    const middle = Math.ceil(chunk.voters.length / 2);
    const [a, b] = [
      chunk.voters.slice(0, middle),
      chunk.voters.slice(middle)
    ].map(voters => {
      const half = empty();
      voters.forEach(voter => {
        half.voters.push(voter);
        half.pairs.push(...chunk.pairs.filter(p => p[1] === voter));
      });
      return plan(half);
    });
    const first = await read(a, at, `${which}, first half`);
    const then = at === 'latest' ? Number(word(first, 1)) : at;
    const second = await read(b, then, `${which}, second half`);
    const cut = (data: string, half: Chunk) => [
      data.slice(194, 194 + half.voters.length * perVoter * 2),
      data.slice(194 + half.voters.length * perVoter * 2)
    ];
    const [votersA, pairsA] = cut(first, a);
    const [votersB, pairsB] = cut(second, b);
    return first.slice(0, 194) + votersA + votersB + pairsA + pairsB;
  };
  // Every chunk reads the same block: 'latest' is pinned by the first call.
  let at = blockTag === 'latest' ? 'latest' : Number(blockTag);
  let first = '';
  let failure;
  try {
    first = await call(chunks[0], at);
  } catch (err) {
    if (!byClock) throw err;
    failure = err;
  }
  if (byClock) {
    // The clock's block must be where the clock says, at most one block time
    // before the snapshot: else (the chain left its clock, or the block is
    // not there yet) the blockfinder maps the snapshot, and the read is redone.
    const read = first && {
      number: Number(word(first, 1)),
      timestamp: Number(word(first, 0))
    };
    if (!read || !isOnHubClock(hubNetwork, read, time)) {
      if (read && read.number === at) offClock.add(hubNetwork);
      blockTag = await blockfinder(network, snapshot, provider, hubNetwork);
      at = blockTag === 'latest' ? 'latest' : Number(blockTag);
      try {
        first = await call(chunks[0], at);
      } catch (err: any) {
        if (failure) err.message += ` (at the clock's block: ${failure})`;
        throw err;
      }
    }
  }
  const number = Number(word(first, 1));
  // At most PARALLEL calls at once: a node runs calls of tens of millions of
  // gas one after another, and snapshot.js's provider gives each 25 s.
  const rest: string[] = [];
  for (let i = 1; i < chunks.length; i += PARALLEL) {
    const group = chunks.slice(i, i + PARALLEL);
    rest.push(...(await Promise.all(group.map(c => call(c, number)))));
  }
  const block = {
    chainId: Number(word(first, 2)),
    number,
    timestamp: Number(word(first, 0))
  };
  if (String(block.chainId) !== hubNetwork) {
    throw new Error(
      `human-id: the provider of network ${hubNetwork} is on chain ${block.chainId}`
    );
  }

  const timestamp = BigInt(block.timestamp);
  const out: Record<string, HumanVerdict> = {};
  [first, ...rest].forEach((data, index) => {
    const { voters, pairs } = chunks[index];
    const pairAt = 96 + voters.length * perVoter;
    const onchain = (voter: string) => (id: bigint) => {
      const i = pairs.findIndex(p => p[0] === id && p[1] === voter);
      if (i < 0) throw new Error(`human-id: the reader skipped ${id}`);
      return bits(data, pairAt + i, 1);
    };
    let at = 96;
    for (const voter of voters) {
      const verdicts: Record<string, CredentialVerdict> = {};
      for (const circuit of sbts) {
        const flags = bits(data, at, 2);
        at += 2;
        const primary = judgeSbt(flags, timestamp, voter, circuit, actionId);
        let zk;
        if (circuit === 'gov-id') {
          const zkFlags = bits(data, at, 2);
          at += 2;
          if (primary.reason !== 'valid') {
            zk = judgeSbt(zkFlags, timestamp, voter, 'zk-passport', actionId);
          }
        }
        const store =
          !sandbox &&
          permanentStores[circuit] &&
          primary.reason !== 'valid' &&
          zk?.reason !== 'valid';
        if (store && !(flags & 256)) {
          throw new Error(`human-id: the reader skipped the store of ${voter}`);
        }
        const verdict = judgeHumanIdCredential({
          primary,
          passport: zk,
          legacy: store ? (flags & 512) !== 0 : undefined
        });
        verdicts[circuit] = { valid: verdict.valid, reason: verdict.reason };
      }
      if (credentials.includes('clean-hands')) {
        verdicts['clean-hands'] = judgeCleanHands(
          voter,
          rows[voter.toLowerCase()] ?? [],
          onchain(voter),
          timestamp
        );
      }
      const ordered = credentials.map(c => [c, verdicts[c]] as const);
      out[voter] = {
        verified: matchCredentials({
          verdicts: ordered.map(([credential, { valid }]) => ({
            address: voter,
            credential,
            valid,
            expiresAt: null
          })),
          credentials,
          match
        }).valid,
        credentials: Object.fromEntries(ordered)
      };
    }
  });
  return { block, voters: out };
}

export async function strategy(
  space,
  network,
  provider,
  addresses,
  options,
  snapshot
): Promise<Record<string, number>> {
  const score = options?.score ?? 1;
  if (typeof score !== 'number' || !(score > 0)) {
    throw new Error('human-id: score must be a positive number');
  }
  if (addresses.length === 0) return {};
  const { voters } = await verifyHumans(
    network,
    provider,
    addresses,
    options,
    snapshot
  );
  return Object.fromEntries(
    addresses.map(address => [
      getAddress(address),
      voters[getAddress(address)].verified ? score : 0
    ])
  );
}

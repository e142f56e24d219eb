/**
 * The `personhood` command line. `bin/personhood.js` calls {@link main} with `process.argv`; each
 * command loads its modules only when it runs.
 */
import { Command, CommanderError } from 'commander'
import { redact, urlSecrets } from '../utils/redact.js'
import { sanitizeTerminal } from '../utils/sanitize.js'
import { version } from '../version.js'
import { auditCommand } from './commands/audit.js'
import { demoCommand } from './commands/demo.js'
import { scoreCommand } from './commands/score.js'
import { serveCommand } from './commands/serve.js'
import { strategyServerCommand } from './commands/strategy-server.js'
import { verifyCommand } from './commands/verify.js'
import { exitCodeFor, exitCodes } from './exit-codes.js'

/** The commands, in the order `--help` lists them; each is declared in its own module of src/cli/commands/. */
const commands = [serveCommand, strategyServerCommand, demoCommand, scoreCommand, verifyCommand, auditCommand]

/** Builds the program (exported for tests: `createProgram().parseAsync(argv)`). */
export function createProgram(): Command {
  const program = new Command()
  // Errors come back to main() as exceptions, which maps them to the documented exit codes.
  program.exitOverride()
  program.name('personhood').description('Sybil-resistant voting for DAOs: typed clients, a reference server and an on-chain verifier.').version(version)
  // Each command takes the program's settings (the exit override among them), as program.command() would give it.
  for (const command of commands) program.addCommand(command().copyInheritedSettings(program))
  return program
}

/** The URLs a user configures (RPC endpoints carry keys in their paths) and the keys in the environment. */
function commandSecrets(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): string[] {
  const urls: (string | undefined)[] = [env.PERSONHOOD_RPC_URL, env.HUMAN_ID_RPC_URL]
  argv.forEach((argument, index) => {
    for (const flag of ['--rpc', '--hub-chain-rpc']) {
      if (argument === flag) urls.push(argv[index + 1])
      else if (argument.startsWith(`${flag}=`)) urls.push(argument.slice(flag.length + 1))
    }
  })
  return [...urls.flatMap((url) => urlSecrets(url)), env.PASSPORT_API_KEY, env.PERSONHOOD_API_KEY].filter((secret): secret is string => !!secret && secret.length >= 4)
}

/**
 * Runs the CLI.
 *
 * @param argv `process.argv` (node, script, arguments...).
 * @example
 * import { main } from 'personhood/cli'
 * await main(['node', 'personhood', 'serve', '--port', '0'])
 */
export async function main(argv: readonly string[]): Promise<void> {
  const program = createProgram()
  try {
    await program.parseAsync([...argv])
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has printed the usage error (or the help, or the version) already.
      process.exitCode = error.exitCode === 0 ? exitCodes.ok : exitCodes.usage
      return
    }
    console.error(sanitizeTerminal(redact(error instanceof Error ? error.message : String(error), commandSecrets(argv, process.env))))
    process.exitCode = exitCodeFor(error)
  }
}

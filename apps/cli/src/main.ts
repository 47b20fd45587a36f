/**
 * `catalog`: the command-line tool. `catalog --help` lists the commands; each prints its result
 * on stdout (a token, a table) and everything else on stderr, so `$(catalog token create …)`
 * captures just the token. Exit status: 0 done, 1 failed, 2 bad usage or configuration.
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { configOrExit } from '@catalog/config'
import { CatalogError } from '@catalog/core'
import { Command, CommanderError, InvalidArgumentError } from 'commander'
import { type TargetOptions, targetOf } from './client.js'
import { CommandFailure } from './command-failure.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')

/** The apps `catalog start` runs, in this process. */
export const APPS: Readonly<Record<string, string>> = {
  'all-in-one': 'apps/gateway/src/all-in-one.ts',
  gateway: 'apps/gateway/src/server.ts',
  'metadata-service': 'apps/metadata-service/src/server.ts',
  'search-service': 'apps/search-service/src/server.ts',
}

/** The sample catalog: DataHub's bootstrap example, then the golden ingestion files. */
export const SAMPLE_PATHS = [
  'test/fixtures/datahub/metadata-ingestion_examples_mce_files_bootstrap_mce.json',
  'test/fixtures/datahub/golden',
].map((p) => join(ROOT, p))

/** The catalog's version (the root package.json), recorded in backup manifests. */
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version

const say = (line: string) => process.stderr.write(`${line}\n`)

// Each command's module is loaded when that command runs, so `catalog --help` or `catalog
// ingest` does not load the store, the search index and the auth stack.
const commands = {
  backup: () => import('./commands/backup.js'),
  check: () => import('./commands/check.js'),
  import: () => import('./commands/import.js'),
  ingest: () => import('./commands/ingest.js'),
  restore: () => import('./commands/restore.js'),
  token: () => import('./commands/token.js'),
}

function positiveInt(value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1 || n > 256) throw new InvalidArgumentError('a whole number from 1 to 256')
  return n
}

function withTarget(command: Command): Command {
  return command
    .option('--server <url>', 'the catalog (default: $CATALOG_URL or http://localhost:$PORT)')
    .option(
      '--token <token>',
      'bearer token (default: $CATALOG_TOKEN, $DATAHUB_GMS_TOKEN or <data dir>/admin.token)',
    )
    .option('--concurrency <n>', 'requests in flight', positiveInt, 8)
}

async function ingestPaths(
  paths: readonly string[],
  options: TargetOptions & { concurrency: number },
): Promise<void> {
  const target = targetOf(options)
  const { collect, describeSummary, ingestRecords } = await commands.ingest()
  const { files, records } = await collect(paths)
  const summary = await ingestRecords(target, files, records, { concurrency: options.concurrency })
  say(describeSummary(summary, target.server))
  if (summary.failed > 0) process.exitCode = 1
}

export function program(): Command {
  const cli = new Command('catalog')
    .description('A DataHub-compatible metadata catalog')
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: (s) => process.stdout.write(s), writeErr: (s) => process.stderr.write(s) })

  cli
    .command('start')
    .description(`run the catalog in this process: ${Object.keys(APPS).join(', ')} (default all-in-one)`)
    .argument('[app]', 'which app', 'all-in-one')
    .action(async (app: string) => {
      const entry = APPS[app]
      if (!entry)
        throw new InvalidArgumentError(`unknown app "${app}"; one of ${Object.keys(APPS).join(', ')}`)
      await import(join(ROOT, entry))
    })

  withTarget(
    cli
      .command('ingest')
      .description(
        'send DataHub MCE/MCP JSON files (a file, a directory of .json files, or - for stdin) to a running catalog',
      )
      .argument('<paths...>', 'files, directories or -'),
  ).action(async (paths: string[], options: TargetOptions & { concurrency: number }) =>
    ingestPaths(paths, options),
  )

  withTarget(
    cli
      .command('sample-data')
      .description(
        "load a demo catalog into a running catalog: DataHub's bootstrap example and 51 golden ingestion files",
      ),
  ).action(async (options: TargetOptions & { concurrency: number }) => ingestPaths(SAMPLE_PATHS, options))

  cli
    .command('import')
    .description(
      'load DataHub MCE/MCP files (JSON arrays or JSON lines) and metadata_aspect_v2 exports (CSV or JSON lines) straight into the embedded catalog of $CATALOG_DATA_DIR (stopped); rerun after a crash to resume',
    )
    .argument('<paths...>', 'files or directories')
    .action(async (paths: string[]) => {
      const config = configOrExit()
      const { describeImport, importPaths } = await commands.import()
      const summary = await importPaths(config, paths)
      process.stdout.write(`${describeImport(summary, config.CATALOG_DATA_DIR)}\n`)
      if (summary.failed > 0) process.exitCode = 1
    })
  cli
    .command('backup')
    .description(
      'copy the embedded catalog of $CATALOG_DATA_DIR (store, search index, token secret) into a new directory; safe while it runs',
    )
    .argument('<dir>', 'the backup directory (new or empty)')
    .action(async (dir: string) => {
      const started = Date.now()
      const { backupDataDir, describeBackup } = await commands.backup()
      const manifest = await backupDataDir(configOrExit(), dir, { version: VERSION, say })
      process.stdout.write(`${describeBackup(dir, manifest, Date.now() - started)}\n`)
    })
  cli
    .command('restore')
    .description(
      'verify a backup and put it in place as the catalog of $CATALOG_DATA_DIR (the catalog must be stopped)',
    )
    .argument('<dir>', 'a directory written by catalog backup')
    .option('--force', 'replace the catalog files of a data dir that is not empty', false)
    .action(async (dir: string, options: { force: boolean }) => {
      const started = Date.now()
      const config = configOrExit()
      const { describeRestore, restoreDataDir } = await commands.restore()
      const manifest = restoreDataDir(config, dir, { force: options.force, say })
      process.stdout.write(`${describeRestore(config.CATALOG_DATA_DIR, manifest, Date.now() - started)}\n`)
    })
  cli
    .command('check')
    .description(
      'read-only integrity check of $CATALOG_DATA_DIR: SQLite integrity, edges against aspects, search documents against entities; exit 1 on mismatches',
    )
    .option('--json', 'print the report as JSON', false)
    .option('--max <n>', 'mismatches to list', positiveInt, 10)
    .action(async (options: { json: boolean; max: number }) => {
      const { checkDataDir, describeCheck } = await commands.check()
      const report = checkDataDir(configOrExit(), options.max)
      const out = options.json ? [JSON.stringify(report, null, 2)] : describeCheck(report)
      process.stdout.write(`${out.join('\n')}\n`)
      if (report.mismatches > 0) process.exitCode = 1
    })

  const token = cli.command('token').description('access tokens, on the data of $CATALOG_DATA_DIR')
  token
    .command('create')
    .description('mint a token; prints only the token on stdout')
    .requiredOption('--actor <urn>', 'the corpuser the token acts as')
    .option('--ttl <ttl>', 'lifetime: 30d, 12h, 1y or never', '30d')
    .option('--name <name>', 'a name to list it by')
    .option('--description <text>', 'what it is for')
    .action(async (options: { actor: string; ttl: string; name?: string; description?: string }) => {
      const { createToken } = await commands.token()
      const { token, id, info } = await createToken(configOrExit(), options)
      const expires = info.expiresAt ? new Date(info.expiresAt).toISOString() : 'never'
      say(`minted token ${id} for ${info.actorUrn} (expires ${expires})`)
      process.stdout.write(`${token}\n`)
    })
  token
    .command('list')
    .description('the tokens that are not revoked: id, actor, expiry, name (tab-separated)')
    .action(async () => {
      const { listTokens } = await commands.token()
      for (const { id, info } of await listTokens(configOrExit())) {
        const expires = info.expiresAt ? new Date(info.expiresAt).toISOString() : 'never'
        process.stdout.write(`${[id, info.actorUrn, expires, info.name].join('\t')}\n`)
      }
    })
  token
    .command('revoke')
    .description('revoke a token by id')
    .argument('<id>', 'the token id (see `catalog token list`)')
    .action(async (id: string) => {
      const { revokeToken } = await commands.token()
      await revokeToken(configOrExit(), id)
      say(`revoked token ${id}`)
    })
  return cli
}

/** Runs the CLI; resolves with the exit status. */
export async function run(argv: readonly string[]): Promise<number> {
  try {
    await program().parseAsync([...argv], { from: 'user' })
    return Number(process.exitCode ?? 0)
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2
    if (err instanceof CommandFailure) {
      say(`catalog: ${err.message}`)
      return 1
    }
    if (err instanceof CatalogError || err instanceof InvalidArgumentError) {
      say(`catalog: ${err.message}`)
      return 2
    }
    say(`catalog: ${(err as Error).stack ?? String(err)}`)
    return 1
  }
}

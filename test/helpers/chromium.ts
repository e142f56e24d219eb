/**
 * The headless Chromium the browser tests open pages in (the audit report, the voter page).
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Chromium: PERSONHOOD_CHROMIUM, else one on the PATH, else the build the dev dependency
 * @sparticuz/chromium carries in its tarball (brotli-compressed, unpacked to the temp folder on
 * first use; no download), so the test also runs where no browser is installed (CI).
 */
export async function findChromium(): Promise<{ path: string; reason?: undefined } | { path?: undefined; reason: string }> {
  if (process.env.PERSONHOOD_CHROMIUM) return { path: process.env.PERSONHOOD_CHROMIUM }
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      const path = execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim()
      if (path) return { path }
    } catch {
      // not on the PATH; try the next name
    }
  }
  try {
    const { default: bundled } = await import('@sparticuz/chromium')
    // It unpacks into os.tmpdir(): there a cache folder kept between runs, not the suite's temp folder.
    const cache = join(process.cwd(), 'node_modules', '.cache', 'personhood-chromium')
    mkdirSync(cache, { recursive: true })
    const saved = process.env.TMPDIR
    process.env.TMPDIR = cache
    try {
      const path = await bundled.executablePath()
      // Built for Amazon Linux: elsewhere it needs the system's NSS libraries (libnss3, libnspr4).
      try {
        execFileSync(path, ['--version'], { stdio: 'pipe', timeout: 30_000 })
      } catch (error) {
        const stderr = String((error as { stderr?: Buffer }).stderr ?? '').split('\n')[0]
        return { reason: `the Chromium of @sparticuz/chromium does not start here (${stderr || (error as Error).message}); install libnss3 or chromium` }
      }
      return { path }
    } finally {
      if (saved === undefined) delete process.env.TMPDIR
      else process.env.TMPDIR = saved
    }
  } catch (error) {
    return { reason: `no Chromium found (PERSONHOOD_CHROMIUM, the PATH, @sparticuz/chromium: ${(error as Error).message})` }
  }
}


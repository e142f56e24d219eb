#!/usr/bin/env node
import { main } from '../dist/cli/main.js'

main(process.argv).catch((error) => {
  console.error(error instanceof Error ? error.message : String(error))
  process.exitCode = 1
})

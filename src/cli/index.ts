/**
 * `personhood/cli`: the command line as a library: run the demo or the reference server from code.
 */
export { createProgram, main } from './main.js'
export { formatDemoReport, runDemo, type DemoAccountReport, type DemoReport, type RunDemoParameters } from './demo.js'
export { describeServe, serveEnvironment, type ServeVariable } from './serve.js'

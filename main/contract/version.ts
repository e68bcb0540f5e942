/** Hookbench's version, as in package.json (a test keeps the two equal): the CLI, the API and the client library report it. */
export const HOOKBENCH_VERSION = '0.1.0';

/** This package's version, reported in the default `User-Agent`; keep in step with package.json. */
export const SDK_VERSION = "0.1.0";

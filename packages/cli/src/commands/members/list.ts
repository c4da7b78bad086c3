// `members list` and `users list` are one command under the two names people look for.
export { run, spec } from "../users/list.js";

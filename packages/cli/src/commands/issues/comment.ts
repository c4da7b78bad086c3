// `tracker issues comment` is gh's spelling of `tracker comments add`: the same command.
export { run, spec } from "../comments/add.js";

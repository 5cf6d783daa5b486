// Who makes a change of the store, as its history records it: on a machine, the OS user and the host the command runs
// on. Only the operator's and CI's own accounts run the commands, so this names a person or a pipeline; it proves
// nothing against someone who can write the store anyway.
const os = require('node:os');

/** The user and host running this process, as `user@host`. */
function thisActor() {
  let user;
  try {
    user = os.userInfo().username;
  } catch {
    // A uid with no entry in the password database (some containers): its number is all there is.
    user = `uid ${process.getuid?.() ?? '?'}`;
  }
  return `${user}@${os.hostname()}`;
}

module.exports = { thisActor };

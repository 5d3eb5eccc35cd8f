/**
 * Writes of one file by this process, one at a time. A write goes through a temporary file named after
 * the process and is renamed into place; two Cores of one process (tests run the command line beside a
 * window's Core) must not share that temporary file mid-write. Other processes have their own names.
 */
const turns = new Map<string, Promise<void>>();

/** Run `write` once every earlier write of `file` by this process has ended. */
export function inTurn<T>(file: string, write: () => Promise<T>): Promise<T> {
  const mine = (turns.get(file) ?? Promise.resolve()).then(write);
  const ended = mine.then(
    () => undefined,
    () => undefined,
  );
  turns.set(file, ended);
  void ended.then(() => {
    if (turns.get(file) === ended) turns.delete(file);
  });
  return mine;
}

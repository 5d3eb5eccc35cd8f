/**
 * A process ID no process has, for a lock or a run file left by a process that is gone (killed, its PID
 * reaped). 2^22 is the largest PID limit Linux allows (pid_max; PIDs stay below it) and above any macOS
 * PID, so no process can hold it now or later, and the test starts no process to get one.
 */
export const DEAD_PID = 2 ** 22;

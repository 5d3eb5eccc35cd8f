export type Logger = (message: string, error?: unknown) => void;

/** The console, for whoever is given no logger: a warning, or an error with what was thrown. */
export function consoleLogger(prefix = '[plugboard]'): Logger {
  return (message, error) =>
    error === undefined ? console.warn(`${prefix} ${message}`) : console.error(`${prefix} ${message}`, error);
}

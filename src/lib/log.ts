/** Structured logs: one JSON object per line on stdout. Never give it a key or a body. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

export type LogFields = Record<string, unknown>

export interface Logger {
  debug(message: string, fields?: LogFields): void
  info(message: string, fields?: LogFields): void
  warn(message: string, fields?: LogFields): void
  error(message: string, fields?: LogFields): void
}

export function createLogger(level: LogLevel, write: (line: string) => void = (line) => console.log(line)): Logger {
  const threshold = LOG_LEVELS.indexOf(level)
  const at =
    (name: Exclude<LogLevel, 'silent'>) =>
    (message: string, fields: LogFields = {}) => {
      if (LOG_LEVELS.indexOf(name) < threshold) return
      write(JSON.stringify({ time: new Date().toISOString(), level: name, msg: message, ...fields }))
    }
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
}

export const silentLogger: Logger = createLogger('silent')

/**
 * Hands lines to `write` together, once per turn of the event loop: under load many requests end
 * in one turn, and one write of all their lines costs far less than a write each. Nothing is
 * dropped: what is pending is written before the process exits.
 */
export function batchedLines(write: (text: string) => void): (line: string) => void {
  let pending: string[] = []
  const flush = () => {
    if (pending.length === 0) return
    const lines = pending
    pending = []
    write(lines.join('\n'))
  }
  process.on('exit', flush)
  return (line) => {
    if (pending.length === 0) setImmediate(flush)
    pending.push(line)
  }
}

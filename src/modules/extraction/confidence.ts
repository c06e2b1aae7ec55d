/**
 * The confidences that decide what a job answers, whatever the engine (D67, D68, D90): below each,
 * a value is dropped or another reading's is kept. Calibrated by hand on the development sets with
 * `bun run bench:extract` (a wrong value costs a user more than an empty one); the built-in engine's
 * own scores are in engines/builtin/weights.ts.
 */

/** Below this the built-in engine answers null: a guess, not an answer. */
export const MIN_ANSWER_CONFIDENCE = 0.5

/** The least confidence at which a scan's second reading's answer is taken over the first's (D67). */
export const SECOND_READING_MIN_CONFIDENCE = 0.6

/** Below this OCR confidence (0–1) of the words a value was read from, the value is not trusted (D68). */
export const MIN_OCR_CONFIDENCE = 0.6

/**
 * What a language model's answer is worth: it gives no confidence of its own, and a value it gives
 * that normalises to its field's type is usually right.
 */
export const MODEL_CONFIDENCE = 0.8

/**
 * What a value read by OCR keeps of its confidence (D68): the engine's confidence times the lowest
 * OCR confidence of its words, lifted by this much first (at most to 1), so that a value read from
 * clear words (0.95 and more) keeps what the engine gave it.
 */
export const OCR_READING_ALLOWANCE = 0.05

/**
 * The document's currency by votes (normalise/currency.ts): a currency beside an amount counts
 * most, a code anywhere less, a symbol or a currency's name least; the winner's confidence grows
 * with its votes (up to `votesCounted`) and shrinks with its rival's share.
 */
export const DOCUMENT_CURRENCY = {
  /** Each amount printed with the currency's symbol or code. */
  amountVote: 3,
  /** Each code anywhere in a money context ("EUR"). */
  codeVote: 1,
  /** Each currency symbol anywhere, up to `symbolsCounted` of them: "$" and "£" are printed in other senses too. */
  symbolVote: 0.5,
  symbolsCounted: 5,
  /** The currency's name in any language ("euros", "Schweizer Franken"). */
  wordVote: 0.5,
  /** The confidence of a currency with no votes yet … */
  base: 0.5,
  /** … plus this for each vote, up to `votesCounted` … */
  perVote: 0.06,
  votesCounted: 6,
  /** … at most this much … */
  cap: 0.95,
  /** … times `uncontested` + (1 − `uncontested`) × the winner's share of the two leading currencies' votes (a winner alone keeps all). */
  uncontested: 0.5,
} as const

/**
 * What an uncalibrated engine's value is worth, as a share of its own score, when it breaks a sum
 * the other answers make (D282): one of the amounts is wrong and the check cannot tell which.
 */
export const BROKEN_SUMS_FACTOR = 0.6

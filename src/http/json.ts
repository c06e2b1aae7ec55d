/**
 * Answers whose body is already JSON text (D65). The busiest routes build their answer as text,
 * splicing in JSON the database stores or serialising a constant answer once, rather than
 * returning an object that Elysia would check against the response schema and serialise again.
 * Those routes keep declaring their response schemas, for the OpenAPI document and the types,
 * and the tests check every operation's answers against that document.
 */
const JSON_HEADERS = { 'content-type': 'application/json;charset=utf-8' }

export function jsonResponse(text: string, status = 200): Response {
  return new Response(text, { status, headers: JSON_HEADERS })
}

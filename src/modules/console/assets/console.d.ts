/** console.js, imported `with { type: 'file' }`: a path, inside the binary once compiled. */
declare const path: string
export default path

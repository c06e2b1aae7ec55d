// Files imported `with { type: 'file' }` resolve to a path, inside the binary once compiled.
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  const path: string
  export default path
}
declare module 'swagger-ui-dist/swagger-ui.css' {
  const path: string
  export default path
}
declare module '*.wasm' {
  const path: string
  export default path
}
declare module '*.traineddata.gz' {
  const path: string
  export default path
}
declare module 'tesseract.js-core/tesseract-core-simd.js' {
  /** Emscripten's module factory. */
  const TesseractCore: (options: { wasmBinary: ArrayBuffer; print?: (line: string) => void; printErr?: (line: string) => void }) => Promise<unknown>
  export default TesseractCore
}
declare module 'pdfjs-dist/build/pdf.min.mjs' {
  const path: string
  export default path
}
declare module 'pdfjs-dist/build/pdf.worker.min.mjs' {
  const path: string
  export default path
}
declare module '*.css' {
  const path: string
  export default path
}
declare module '*.so.8.18.7' {
  const path: string
  export default path
}
declare module '*.onnx' {
  const path: string
  export default path
}
declare module '*.txt' {
  const path: string
  export default path
}
declare module '*.so.1.gz' {
  const path: string
  export default path
}

// The README's "From code" example, typechecked with the package (quoted there verbatim).
import { findTemplate, projectNameProblems, scaffold } from './index.js';

const template = findTemplate('server-http');
if (template && projectNameProblems('my-app').length === 0) {
  const files = scaffold({ dir: 'my-app', name: 'my-app', template }); // throws if my-app has files
  console.log(files); // ['.gitignore', 'README.md', 'package.json', 'src/client.ts', …]
}

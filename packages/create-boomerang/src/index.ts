// create-boomerang: the scaffolder behind `npm create boomerang@latest`, also usable from code.

// The command line.
export { type CliArgs, parseCliArgs, usage } from './args.js';
export { type CliEnvironment, type CliIo, DEFAULT_DIR, runCli } from './cli-main.js';
// Package managers.
export { type PackageManager, packageManagerFrom, runScript } from './install.js';
// Names.
export { folderForName, projectNameProblems } from './names.js';
// Writing a project.
export { ownVersion, type ScaffoldOptions, scaffold, targetProblem } from './scaffold.js';
export { loadTemplateLayers, type TemplateFiles, type TemplateLayers } from './template-files.js';
export { findTemplate, renderTemplate, TEMPLATES, type Template, type TemplateValues } from './templates.js';

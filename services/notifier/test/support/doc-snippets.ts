import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const doc = readFileSync(new URL('../../../../docs/api/webhooks.md', import.meta.url), 'utf8');

/** The code blocks of docs/api/webhooks.md in one language, in the document's order. */
export const docBlocks = (fence: string): string[] =>
  [...doc.matchAll(new RegExp('```' + fence + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);

/** One request to show the snippets: a body and its headers (lower-case names). */
export interface SnippetCase {
  name: string;
  body: string;
  headers: Record<string, string>;
}

/** Per case, what the spec's check and the Standard Webhooks check answered, in that order. */
export type Verdicts = Record<string, [boolean, boolean]>;

export interface SnippetLanguage {
  name: string;
  /** the interpreter, and the Debian package that CI installs it from when it is missing */
  command: string;
  debianPackage: string;
  /** the code fence of its blocks in the document */
  fence: string;
  /** the two checks, as the document declares them */
  declarations: [string, string];
  /** writes the document's blocks and a main program into dir; returns the interpreter's arguments */
  prepare(dir: string, blocks: string[]): string[];
  /** what the interpreter needs in its environment, beside the test's own */
  env?: (dir: string) => NodeJS.ProcessEnv;
}

/*
 * Each main program reads {secret, cases} on stdin, passes every case to the document's two checks
 * with headers in the form the document names for that language, and prints the verdicts as JSON.
 */

const PYTHON_MAIN = `
import json, sys

class Headers(dict):
    """Names in any case, as Flask's and Django's request.headers."""
    def get(self, name, default=None):
        return super().get(name.lower(), default)

run = json.load(sys.stdin)
out = {}
for case in run["cases"]:
    headers = Headers({k.lower(): v for k, v in case["headers"].items()})
    body = case["body"].encode()
    out[case["name"]] = [verify(run["secret"], body, headers), verify_standard(run["secret"], body, headers)]
print(json.dumps(out))
`;

// A warning or a deprecation is an error here: the snippets must run clean.
const PHP_PRELUDE = `<?php
declare(strict_types=1);
set_error_handler(function (int $level, string $message): bool {
    throw new ErrorException($message, 0, $level);
});
`;

const PHP_MAIN = `
$run = json_decode(stream_get_contents(STDIN), true, 512, JSON_THROW_ON_ERROR);
$out = [];
foreach ($run['cases'] as $case) {
    $headers = array_change_key_case($case['headers'], CASE_LOWER);
    $out[$case['name']] = [
        verify($run['secret'], $case['body'], $headers),
        verify_standard($run['secret'], $case['body'], $headers),
    ];
}
echo json_encode($out, JSON_THROW_ON_ERROR);
`;

const RUBY_MAIN = `
require "json"

# Names in any case, as Rails's request.headers.
class Headers
  def initialize(pairs)
    @pairs = pairs.transform_keys(&:downcase)
  end

  def [](name)
    @pairs[name.downcase]
  end
end

run = JSON.parse($stdin.read)
out = run["cases"].to_h do |c|
  headers = Headers.new(c["headers"])
  [c["name"], [verify(run["secret"], c["body"], headers), verify_standard(run["secret"], c["body"], headers)]]
end
puts JSON.generate(out)
`;

const GO_MAIN = `package main

import (
	"encoding/json"
	"net/http"
	"os"
)

func main() {
	var run struct {
		Secret string
		Cases  []struct {
			Name    string
			Body    string
			Headers map[string]string
		}
	}
	if err := json.NewDecoder(os.Stdin).Decode(&run); err != nil {
		panic(err)
	}
	out := map[string][2]bool{}
	for _, c := range run.Cases {
		h := http.Header{}
		for name, value := range c.Headers {
			h.Set(name, value)
		}
		out[c.Name] = [2]bool{Verify(run.Secret, []byte(c.Body), h), VerifyStandard(run.Secret, []byte(c.Body), h)}
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		panic(err)
	}
}
`;

export const SNIPPET_LANGUAGES: SnippetLanguage[] = [
  {
    name: 'Python',
    command: 'python3',
    debianPackage: 'python3',
    fence: 'python',
    declarations: ['def verify(', 'def verify_standard('],
    prepare: (dir, blocks) => {
      writeFileSync(join(dir, 'main.py'), blocks.join('\n') + PYTHON_MAIN);
      return ['main.py'];
    },
  },
  {
    name: 'PHP',
    command: 'php',
    debianPackage: 'php-cli',
    fence: 'php',
    declarations: ['function verify(', 'function verify_standard('],
    prepare: (dir, blocks) => {
      writeFileSync(join(dir, 'main.php'), PHP_PRELUDE + blocks.join('\n') + PHP_MAIN);
      return ['main.php'];
    },
  },
  {
    name: 'Ruby',
    command: 'ruby',
    debianPackage: 'ruby',
    fence: 'ruby',
    declarations: ['def verify(', 'def verify_standard('],
    prepare: (dir, blocks) => {
      writeFileSync(join(dir, 'main.rb'), blocks.join('\n') + RUBY_MAIN);
      return ['main.rb'];
    },
  },
  {
    name: 'Go',
    command: 'go',
    debianPackage: 'golang-go',
    fence: 'go',
    declarations: ['func Verify(', 'func VerifyStandard('],
    // Each block is a file of one package; here they join the main program's package.
    prepare: (dir, blocks) => {
      const files = blocks.map((block, i) => {
        writeFileSync(join(dir, `snippet${i}.go`), block.replace(/^package \w+$/m, 'package main'));
        return `snippet${i}.go`;
      });
      writeFileSync(join(dir, 'main.go'), GO_MAIN);
      return ['run', 'main.go', ...files];
    },
    // The build cache outlives the run, so that only the first run compiles the standard library.
    env: (dir) => ({
      GOCACHE: join(tmpdir(), 'stablepay-doc-snippets-go-cache'),
      GOPATH: join(dir, 'gopath'),
      GOTOOLCHAIN: 'local',
      GOPROXY: 'off',
      GOFLAGS: '',
    }),
  },
];

export const interpreterInstalled = (language: SnippetLanguage): boolean =>
  !spawnSync(language.command, ['--version']).error;

/** Runs the document's two checks of one language, as written, on every case. */
export const runSnippets = (language: SnippetLanguage, secret: string, cases: SnippetCase[]): Verdicts => {
  const dir = mkdtempSync(join(tmpdir(), `doc-snippets-${language.fence}-`));
  try {
    const args = language.prepare(dir, docBlocks(language.fence));
    const out = execFileSync(language.command, args, {
      cwd: dir,
      input: JSON.stringify({ secret, cases }),
      encoding: 'utf8',
      env: { ...process.env, ...language.env?.(dir) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return JSON.parse(out) as Verdicts;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

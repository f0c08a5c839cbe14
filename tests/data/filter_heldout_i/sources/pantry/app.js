// The pantry API the volunteers' label printer talks to: express with morgan's access log; run it with
// DEBUG=express:* to see the router at work.
const express = require('express')
const morgan = require('morgan')

const app = express()
app.use(morgan(':date[iso] :method :url :status :res[content-length] - :response-time ms'))
app.use(express.json())

const labels = new Map()
let printed = 0

app.get('/health', (req, res) => res.json({ ok: true }))
app.get('/labels/:sku', (req, res) => {
  const sku = Number(req.params.sku)
  if (!labels.has(sku)) return res.status(404).json({ error: `no label for ${sku}` })
  res.json(labels.get(sku))
})
app.post('/labels', (req, res) => {
  const { sku, name, bestBefore } = req.body
  labels.set(sku, { sku, name, bestBefore: new Date(bestBefore).toISOString() }) // RangeError on a bad date
  res.status(201).json(labels.get(sku))
})
app.post('/print/:sku', (req, res) => {
  const label = labels.get(Number(req.params.sku))
  printed += 1
  if (printed % 9 === 0) console.warn(`printer: paper low after ${printed} labels`)
  res.json({ printed: label.name.toUpperCase() }) // TypeError when the label is missing
})

const server = app.listen(Number(process.argv[2]), '127.0.0.1', () => console.log(`pantry api on ${server.address().port}`))
process.on('SIGTERM', () => { console.log('SIGTERM: closing'); server.close(() => process.exit(0)) })

// The widgets whose input → paint the benchmark times (bench.mjs) and whose frames trace.mjs
// breaks down: where they are, which field changes, which output must change, and the values
// to cycle through (`null`: the field's first value) or the keys to press.
export const WIDGETS = [
  { name: 'weight memory', path: '/model-selection/', widget: 'weight-memory', field: '[data-testid="weight-params"]', output: '[data-testid="weight-gb"]', values: ['8', '70', '13', '405'] },
  { name: 'decode ceiling', path: '/why-size-wins/', widget: 'decode-ceiling', field: '[data-testid="decode-bandwidth"]', output: '[data-testid="decode-tps-a"]', values: ['200', '100', '3350', '819'] },
  { name: 'distillation', path: '/model-selection/', widget: 'distillation', field: '[data-testid="distill-temperature"]', output: '[data-testid="loss-soft-a"]', values: ['1', '2', '4', '0.5'] },
  // The first case's candidate SQL, made wrong and put back: the candidate's accuracy moves.
  { name: 'mini eval', path: '/model-selection/', widget: 'mini-eval', field: 'li.eval-case textarea.eval-sql-input', nth: 2, output: '[data-testid="eval-acc-candidate"]', values: ['SELECT 1', null] },
  // Cards: Space shows the answer, 3 grades it Good and brings the next card.
  { name: 'cards', path: '/recall/', widget: 'recall', field: '.recall-review', output: '.recall-review', keys: [' ', '3'] },
  { name: 'latency explorer', path: '/latency-and-throughput/', widget: 'latency', field: '[data-testid="latency-median"]', output: '[data-testid="latency-mean"]', values: ['800', '600', '1200', '400'] },
];

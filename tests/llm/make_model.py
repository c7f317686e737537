#!/usr/bin/env python3
"""Writes the tiny model of the LLM tests: a GGUF v3 file that llama.cpp loads as a llama model.

    python3 tests/llm/make_model.py OUT.gguf

No weights are downloaded: this file is the model. Its answer does not depend on the prompt:
every block weight is zero (attention and feed-forward add nothing to the residual stream), every
token embeds to e0 = [1, 0, ...], and row t of output.weight is [score(t), 0, ...]. So the logits
are 8 * score(t) at every position (8 = sqrt(64), the final RMS norm of e0), and greedy decoding
under a `grammar` picks the longest token the grammar allows, then `</s>` once it is complete.
The levels "1" to "4" score highest, so a grader's digit has a uniform distribution over them.
Standard library only; the output is the same bytes on every run.
"""

import array
import os
import struct
import sys
import tempfile

N_EMBD, N_HEAD, N_FF, N_CTX = 64, 2, 128, 32768
ALIGNMENT = 32  # GGUF's default (general.alignment is not written)

# GGUF value types, ggml's F32 tensor type and llama.cpp's token types.
UINT32, INT32, FLOAT32, BOOL, STRING, ARRAY = 4, 5, 6, 7, 8, 9
F32 = 0
NORMAL, UNKNOWN, CONTROL, BYTE = 1, 2, 3, 6

# The forced answers of tests/llm/fixtures/*.gbnf in few tokens (newlines are the byte <0x0A>).
WORDS = ["Here it is:", "```python", "```", "def f(a, b):", "    return a - b",
         "    return a + b", "accuracy:", "completeness:"]
LEVEL_SCORE = 20.0  # above every word's length


def vocabulary():
    """(text, score, type) of each token. SentencePiece writes a space as U+2581."""
    # `</s>` is below everything that prints: greedy decoding ends once the grammar is complete.
    tokens = [("<unk>", -20.0, UNKNOWN), ("<s>", -20.0, CONTROL), ("</s>", -10.0, CONTROL)]
    # A byte is below its character, so it is picked only where no other token fits (newlines).
    tokens += [(f"<0x{b:02X}>", 0.0, BYTE) for b in range(256)]
    for text in [chr(c) for c in range(0x20, 0x7F)] + WORDS:
        score = LEVEL_SCORE if text in {"1", "2", "3", "4"} else float(len(text))
        tokens.append((text.replace(" ", "\u2581"), score, NORMAL))
    return tokens


def string(text):
    data = text.encode()
    return struct.pack("<Q", len(data)) + data


def value(kind, v):
    if kind == STRING:
        return string(v)
    return struct.pack({UINT32: "<I", INT32: "<i", FLOAT32: "<f", BOOL: "<?"}[kind], v)


def kv(key, kind, v):
    return string(key) + struct.pack("<I", kind) + value(kind, v)


def kv_array(key, kind, values):
    head = string(key) + struct.pack("<IIQ", ARRAY, kind, len(values))
    return head + b"".join(value(kind, v) for v in values)


def floats(values):
    data = array.array("f", values)
    if sys.byteorder == "big":
        data.byteswap()
    return data.tobytes()


def pad(n):
    return -n % ALIGNMENT


def model():
    tokens = vocabulary()
    n_vocab = len(tokens)
    texts, scores, types = zip(*tokens)
    kvs = [
        kv("general.architecture", STRING, "llama"),
        kv("general.name", STRING, "wasmeval tiny test model"),
        kv("general.file_type", UINT32, 0),  # all F32
        kv("llama.vocab_size", UINT32, n_vocab),
        kv("llama.context_length", UINT32, N_CTX),
        kv("llama.embedding_length", UINT32, N_EMBD),
        kv("llama.block_count", UINT32, 1),
        kv("llama.feed_forward_length", UINT32, N_FF),
        kv("llama.attention.head_count", UINT32, N_HEAD),
        kv("llama.attention.head_count_kv", UINT32, N_HEAD),
        kv("llama.rope.dimension_count", UINT32, N_EMBD // N_HEAD),
        kv("llama.attention.layer_norm_rms_epsilon", FLOAT32, 1e-5),
        kv("tokenizer.ggml.model", STRING, "llama"),
        kv_array("tokenizer.ggml.tokens", STRING, texts),
        kv_array("tokenizer.ggml.scores", FLOAT32, scores),
        kv_array("tokenizer.ggml.token_type", INT32, types),
        kv("tokenizer.ggml.unknown_token_id", UINT32, 0),
        kv("tokenizer.ggml.bos_token_id", UINT32, 1),
        kv("tokenizer.ggml.eos_token_id", UINT32, 2),
        kv("tokenizer.ggml.add_bos_token", BOOL, True),
        kv("tokenizer.ggml.add_eos_token", BOOL, False),
        # llama.cpp prepends a space to SentencePiece prompts by default; the tests' prompts are
        # sent as written.
        kv("tokenizer.ggml.add_space_prefix", BOOL, False),
    ]

    def rows(first):
        return floats(v for row in first for v in [row] + [0.0] * (N_EMBD - 1))

    ones = floats([1.0] * N_EMBD)
    # (name, dims in ggml order: ne0 innermost, data)
    tensors = [
        ("token_embd.weight", [N_EMBD, n_vocab], rows([1.0] * n_vocab)),
        ("output_norm.weight", [N_EMBD], ones),
        ("output.weight", [N_EMBD, n_vocab], rows(scores)),
        ("blk.0.attn_norm.weight", [N_EMBD], ones),
    ]
    for name in ["attn_q", "attn_k", "attn_v", "attn_output"]:
        tensors.append((f"blk.0.{name}.weight", [N_EMBD, N_EMBD], bytes(4 * N_EMBD * N_EMBD)))
    tensors.append(("blk.0.ffn_norm.weight", [N_EMBD], ones))
    for name, dims in [("ffn_gate", [N_EMBD, N_FF]), ("ffn_up", [N_EMBD, N_FF]),
                       ("ffn_down", [N_FF, N_EMBD])]:
        tensors.append((f"blk.0.{name}.weight", dims, bytes(4 * N_FF * N_EMBD)))

    infos, data = [], b""
    for name, dims, blob in tensors:
        infos.append(string(name) + struct.pack(f"<I{len(dims)}QIQ", len(dims), *dims, F32,
                                                len(data)))
        data += blob + bytes(pad(len(blob)))
    head = b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(kvs)) + b"".join(kvs + infos)
    return head + bytes(pad(len(head))) + data


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_model.py OUT.gguf")
    out = os.path.abspath(sys.argv[1])
    try:
        fd, partial = tempfile.mkstemp(dir=os.path.dirname(out), prefix=".make_model-")
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(model())
            os.chmod(partial, 0o644)
            os.replace(partial, out)
        except BaseException:
            os.unlink(partial)
            raise
    except OSError as error:
        sys.exit(f"make_model.py: cannot write {out}: {error}")


if __name__ == "__main__":
    main()

"""Models exported by real exporters from the code that writes these
patterns in the field, for tests/openvino/test_exported_models.py and
bench/openvino-models.py: each builder returns (ONNX ModelProto, feeds, a
note naming the exporter).  Exported on each run, so that a new exporter
or library version is what the suite meets.

  llama_decode      transformers' LlamaForCausalLM (tiny, random weights),
                    one decode step on a StaticCache whose key/value tensors
                    are the model's inputs and outputs; torch.onnx.export's
                    TorchScript exporter (StaticLayer's index_copy_ ->
                    ScatterElements, the embedding -> Gather)
  llama_decode_dynamo  the same, torch.onnx.export(dynamo=True), which
                    needs onnxscript (index_copy_ -> ScatterND)
  beam_reorder      transformers' DynamicCache.reorder_cache(beam_idx)
                    (index_select on the beam axis -> Gather); TorchScript
  beam_gather       the same plus GenerationMixin._gather_beams
                    (take_along_dim -> GatherElements), which the TorchScript
                    exporter refuses; torch.onnx.export(dynamo=True),
                    which needs onnxscript
  sage_sum/mean/max a GraphSAGE layer in plain PyTorch: index_select of the
                    sources, scatter_add (sum; mean: sums over counts) or
                    scatter_reduce amax into the destinations; TorchScript
  pyg_sage, pyg_gcn torch_geometric's SAGEConv (mean) and GCNConv; TorchScript
  detr_topk         DETR-style post-processing: top-k over sigmoid scores,
                    boxes of the chosen queries by torch.gather
                    (GatherElements); TorchScript
"""
import io
import warnings

import numpy as np

# "full": what the tests run, small and quick; "bench": what
# bench/openvino-models.py --exported times, large enough that the
# scatters and gathers, not each inference's fixed cost, take the time.
SIZES = {"full": dict(batch=2, cache=16, beams=6, beam_len=8, nodes=40, edges=400, feat=16,
                      queries=100, classes=91, topk=30),
         "bench": dict(batch=4, cache=1024, beams=8, beam_len=256, nodes=10_000,
                       edges=100_000, feat=32, queries=300, classes=91, topk=100)}
NAMES = ("llama_decode", "llama_decode_dynamo", "beam_reorder", "beam_gather", "sage_sum",
         "sage_mean", "sage_max", "pyg_sage", "pyg_gcn", "detr_topk")


def _torch():
    import torch
    torch.manual_seed(0)
    return torch


def export(module, args, input_names, output_names, dynamo=False):
    import onnx
    torch = _torch()
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        if dynamo:
            program = torch.onnx.export(module, args, dynamo=True, opset_version=18,
                                        input_names=input_names, output_names=output_names,
                                        verbose=False)
            return program.model_proto
        f = io.BytesIO()
        torch.onnx.export(module, args, f, dynamo=False, opset_version=18,
                          input_names=input_names, output_names=output_names)
    return onnx.load_from_string(f.getvalue())


def feeds_of(names, args):
    return {n: a.numpy() for n, a in zip(names, args)}


def _llama(s, dynamo):
    torch = _torch()
    from transformers import LlamaConfig, LlamaForCausalLM, StaticCache
    config = LlamaConfig(vocab_size=128, hidden_size=64, intermediate_size=128,
                         num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=4,
                         max_position_embeddings=64, attn_implementation="eager")
    model = LlamaForCausalLM(config).eval()

    class DecodeStep(torch.nn.Module):
        """One token per sequence at position pos; the cache in and out."""
        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, ids, pos, *kv):
            cache = StaticCache(config=config, max_cache_len=s["cache"])
            for i, layer in enumerate(cache.layers):
                layer.keys, layer.values = kv[2 * i], kv[2 * i + 1]
                layer.device, layer.cumulative_length = ids.device, pos
                layer.batch_size, layer.num_heads = kv[0].shape[:2]
                layer.k_head_dim = layer.v_head_dim = kv[0].shape[-1]
                layer.is_initialized = True
            where = pos.reshape(1)
            out = self.model(input_ids=ids, cache=cache, cache_position=where,
                             position_ids=where.expand(ids.shape[0], 1), use_cache=True)
            return (out.logits,) + tuple(t for layer in cache.layers
                                         for t in (layer.keys, layer.values))

    b, heads, dim = s["batch"], 4, 16
    kv = [torch.randn(b, heads, s["cache"], dim) for _ in range(4)]
    args = (torch.randint(0, 128, (b, 1)), torch.tensor(5), *kv)
    names = ["ids", "pos", "k0", "v0", "k1", "v1"]
    tag = "llama_dynamo" if dynamo else "llama"
    outputs = ["logits"] + [f"{tag}_{n}" for n in ("k0", "v0", "k1", "v1")]
    feeds = feeds_of(names, args)
    model = export(DecodeStep(), args, names, outputs, dynamo)
    return model, feeds, "dynamo exporter" if dynamo else "TorchScript exporter"


def llama_decode(s):
    return _llama(s, False)


def llama_decode_dynamo(s):
    return _llama(s, True)


def _beam(s, dynamo):
    torch = _torch()
    from transformers import DynamicCache, GenerationMixin

    class Reorder(torch.nn.Module):
        """What beam search does between steps: the cache's beams follow
        their parents (and, dynamo, the token history too)."""
        def forward(self, beam_idx, k0, v0, k1, v1, *history):
            cache = DynamicCache()
            cache.update(k0, v0, 0)
            cache.update(k1, v1, 1)
            cache.reorder_cache(beam_idx)
            out = tuple(t for layer in cache.layers for t in (layer.keys, layer.values))
            if history:
                sequences, parents = history
                out += (GenerationMixin._gather_beams(sequences, parents),)
            return out

    batch, beams = s["batch"], s["beams"] // s["batch"]
    rows = batch * beams
    kv = [torch.randn(rows, 4, s["beam_len"], 16) for _ in range(4)]
    parents = torch.randint(0, beams, (batch, beams))
    beam_idx = (parents + torch.arange(batch)[:, None] * beams).reshape(-1)
    args = (beam_idx, *kv)
    names = ["beam_idx", "k0", "v0", "k1", "v1"]
    tag = "gather" if dynamo else "reorder"
    outputs = [f"{tag}_{n}" for n in ("k0", "v0", "k1", "v1")]
    if dynamo:
        args += (torch.randint(0, 128, (batch, beams, 7)), parents)
        names += ["sequences", "parents"]
        outputs += ["gather_sequences"]
    model = export(Reorder(), args, names, outputs, dynamo)
    return model, feeds_of(names, args), "dynamo exporter" if dynamo else "TorchScript exporter"


def beam_reorder(s):
    return _beam(s, False)


def beam_gather(s):
    return _beam(s, True)


def _graph(s):
    torch = _torch()
    n, e = s["nodes"], s["edges"]
    x = torch.randn(n, s["feat"])
    src = torch.randint(0, n, (e,))
    dst = torch.from_numpy(np.random.default_rng(1).zipf(1.5, e) % n).long()  # a few hubs
    return x, src, dst


def _sage(s, aggr):
    torch = _torch()

    class Sage(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lin_l = torch.nn.Linear(s["feat"], s["feat"])
            self.lin_r = torch.nn.Linear(s["feat"], s["feat"], bias=False)

        def forward(self, x, src, dst):
            msg = x.index_select(0, src)
            where = dst.unsqueeze(-1).expand_as(msg)
            if aggr == "max":  # include_self=False does not export: -inf, then 0
                out = torch.full_like(x, float("-inf")).scatter_reduce(0, where, msg, "amax")
                out = torch.where(torch.isinf(out), torch.zeros_like(out), out)
            else:  # index_add with duplicates does not export: scatter_add
                out = torch.zeros_like(x).scatter_add(0, where, msg)
                if aggr == "mean":
                    ones = torch.ones(dst.shape[0], 1, dtype=x.dtype)
                    count = torch.zeros(x.shape[0], 1, dtype=x.dtype).scatter_add(
                        0, dst.unsqueeze(-1), ones)
                    out = out / count.clamp(min=1)
            return self.lin_l(out) + self.lin_r(x)

    args = _graph(s)
    names = ["x", "src", "dst"]
    model = export(Sage(), args, names, [f"sage_{aggr}"])
    return model, feeds_of(names, args), "TorchScript exporter"


def sage_sum(s):
    return _sage(s, "sum")


def sage_mean(s):
    return _sage(s, "mean")


def sage_max(s):
    return _sage(s, "max")


def _pyg(s, kind):
    _torch()
    from torch_geometric.nn import GCNConv, SAGEConv
    conv = (SAGEConv if kind == "sage" else GCNConv)(s["feat"], s["feat"]).eval()
    x, src, dst = _graph(s)
    import torch
    args = (x, torch.stack([src, dst]))
    names = ["x", "edge_index"]
    return export(conv, args, names, [f"pyg_{kind}"]), feeds_of(names, args), "TorchScript exporter"


def pyg_sage(s):
    return _pyg(s, "sage")


def pyg_gcn(s):
    return _pyg(s, "gcn")


def detr_topk(s):
    torch = _torch()
    k = s["topk"]

    class PostProcess(torch.nn.Module):
        """As DeformableDetr's post_process_object_detection: the top k of
        all (query, class) scores, their labels, their queries' boxes."""
        def forward(self, logits, boxes):
            prob = logits.sigmoid()
            batch, queries, classes = prob.shape
            scores, index = torch.topk(prob.view(batch, -1), k, dim=1)
            query = torch.div(index, classes, rounding_mode="floor")
            labels = index % classes
            chosen = torch.gather(boxes, 1, query.unsqueeze(-1).repeat(1, 1, 4))
            return scores, labels, chosen

    args = (torch.randn(s["batch"], s["queries"], s["classes"]),
            torch.rand(s["batch"], s["queries"], 4))
    names = ["logits", "boxes"]
    return (export(PostProcess(), args, names, ["detr_scores", "detr_labels", "detr_boxes"]),
            feeds_of(names, args), "TorchScript exporter")


def build(name, size="full"):
    return globals()[name](SIZES[size])

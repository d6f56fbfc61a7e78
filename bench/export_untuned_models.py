"""Export PyTorch models that no test, manifest or calibration of this project uses, for
bench/sim_accuracy.sh's "models it was not tuned on" rows (random weights, seeded; nothing downloaded).

    /usr/bin/python3 bench/export_untuned_models.py OUT_DIR [--set 2|3|...|120]

Set 1 (the default) was used while the CPU cost model was worked on (docs/sim_accuracy.md says which of
its rows were looked at); set 2 was exported afterwards and only measured, until its misses were looked
into; set 3 was exported after that and measured once, which led to the vector-op cases' in-cache size;
set 4 was exported after that change and only measured; set 5 was exported after the calibration's
warm-up fix (session 10) and only measured, and its misses were looked into in session 11; set 6 was
exported in session 11, measured, and its deep networks at 128^2 led to the pointwise Conv's block of
positions; set 7 was exported after that change and measured once, before the Conv's taps inside
the input; set 8 was exported after that change and only measured, and its ConvTranspose autoencoder led
to the executor's own ConvTranspose bias and the Conv's block of output channels (session 12); set 9
was exported after session 12's last change to the cost model and only measured; set 10 was exported
after session 13's changes (the profile's and the calibration's minimum times, the depthwise 1-D Conv
on the 2-D kernel) and only measured; set 11 was exported after session 14's change (a model's
transposed or cache-aliasing matrix weights run on a packed copy) and only measured; set 12 was
exported at the start of session 15, after session 14's last change, and measured before any change; set
13 was exported after session 15's changes (pooling passes, the run overhead, products' cold weights)
and only measured; set 14 was exported in session 16, after the executor's function calls were made
cheaper, and measured before that session's other changes (an Einsum costed as a product, the mask
ops' loops); set 15 was exported after those and only measured; set 16 was exported in session 18, after
that session's cost-model changes (a Pad's two kinds, a Cast to its own type and a Pad by zeros as views,
a view's executor time), measured, then the fused body's call was added to the cost model; set 17 was
exported after that and only measured; set 18 was exported in session 19, after a Conv's weights were
charged once an image of its batch, and only measured; set 19 was exported after the dense Conv's weight
stream bound (session 19) and only measured; set 20 was exported in session 20, after the calibration's
halfway cache boundaries and the executor's vectorised Softplus, and measured once before that
session's change for matrix-vector products (its VGG-11 led to it); its PointNet is set 12's architecture at batch 16; set
21 was exported at the start of session 21, after session 20's last change, and measured before any change; set 22
was exported in session 22, after its changes (one-step and computed-weight recurrent cells, a Conv's computed
weight reordered on every call), and only measured: streaming recurrent layers with their state as inputs, a
QDQ-quantised ResNet-18 (this script writes its DequantizeLinear/QuantizeLinear pairs with onnx), and three more;
set 23 was exported in session 22 after the ConvTranspose1d kind (led by set 22's 1-D U-Net) and only measured;
set 24 was exported in session 24 after the executor's ConvTranspose layouts and the conv_transpose_plain kind
(led by sets 21-23's DCGAN generator, 1-D U-Net and HiFi-GAN) and only measured: upsampling decoders of
shapes those were not fitted on, a grouped (per-class) ConvTranspose and a 3-D one among them; set 25 was exported in
session 25 after the row-wise ops' time a row (attention at new sequence lengths); set 26 was exported in
session 26 after the cold-call cost and the live-peak footprint, and only measured; set 27 was exported in
session 28 after a vector op's call was costed by what the run touched since its type last ran, and only
measured; set 28 was exported in session 29 after the executor's one-column product loop (and its gemm_col
kind), its kept product calls and its 16-lane vector math, and only measured: heads of one column (CTR,
value, attention-pooling scores), a Perceiver-style cross-attention, gMLP's spatial gating and ResMLP; set 29
was exported in session 30 after the executor packed every model weight and sped up Gather, and the simulator
costed a Gather's picks (their time a row, and from DRAM), and only measured: embedding-heavy models (a
DLRM-style recommender, a fastText-style classifier, a small encoder over a 30522-word vocabulary, a BiLSTM
tagger), a depthwise-separable keyword-spotting CNN and a small ViT; set 30 was exported in session 31 after
the simulator read a weight through the Identity that shares it between layers and let a packed weight
stream under its product, and only measured: an EfficientNet-style CNN (SiLU, squeeze-excitation), a GRU
text encoder, a T5-style encoder (RMSNorm, no biases, separate Q/K/V), a 1-D convolutional autoencoder,
Swin-style window attention and a neural collaborative-filtering recommender; set 31 was exported in
session 32 after the calibration merge, and only measured; set 32 was exported in session 33 after session 32's
last change (the executor's paired row reductions), and only measured: a DenseNet-BC (concatenated features), a
Conformer (convolution module with GLU and depthwise Conv1d), an LSTM language model with tied weights, a
feature pyramid (nearest upsampling), an encoder-decoder transformer (cross-attention) and a ResNeXt-style
grouped-convolution CNN; set 33 was exported in session 33 after its changes (strided 1x1 Convs on the
executor's product path, a vector op's stall and copy-model time as two bounds) and only measured: a
MobileViT-style hybrid, GhostNet-style modules, a DeepFM recommender, an hourglass pose network, an
SE-ResNet with strided shortcuts and a ConvLSTM unrolled over 8 frames; set 34 was exported at the end of
session 33, after its last change (int64 arithmetic and reductions with axes of size 1 in the executor, a
Gather's or Slice's cold bytes), and only measured: a WaveNet-style gated dilated Conv1d stack, an ESPCN-style
super-resolution net (DepthToSpace), an attention U-Net, a PoolFormer (GroupNorm, pooling as token mixer), an
LSTM autoencoder and a 1-D SE-CNN over ECG-length signals; set 35 was exported in session 34 after the
executor's GlobalAveragePool in partial sums, and only measured: an MLP-Mixer, a character CNN with highway
layers, a GRU decoder with additive attention unrolled over 12 steps, a MobileNetV3-style CNN (hard-swish,
squeeze-excitation), a GPT-style decoder with rotary position embeddings and a causal mask, and a VGG-style
CNN at batch 16 (a run of some 100 MB of activations); set 36 was exported in session 34 after the cost
model's tier beyond the last-level cache, and only measured: a 3-D U-Net, a residual MLP for tabular data, a
CRNN (convolutions into a bidirectional LSTM), an HRNet-style two-branch CNN at 128x128, an x-vector TDNN with
statistics pooling and a SIREN (sine activations); set 37 was exported at the end of session 34, after the
staging buffer's far bytes and the recurrent cells' R stream, and only measured: an FCN-style segmenter
(bilinear upsampling), a two-layer GRU language model, a wide ResNet (WRN-16-4) at batch 16, a speech
encoder (strided Conv2d subsampling into transformer layers), a DCGAN discriminator and a two-layer BiLSTM
tagger; set 38 was exported in session 35 after the executor's row copies and the cost model's distances in
memory (not values), and only measured: a ShuffleNetV2-style CNN (channel split and shuffle), a capsule network
(dynamic routing, 3 iterations), a RegNetY-style CNN (group width 16, squeeze-excitation), a transformer with
linear (elu + 1) attention, an Inception-style CNN (four-branch blocks) and a ResNet with GroupNorm; set
39 was exported at the end of session 35, after its last change, and only measured: a FiLM-conditioned CNN,
a dilated-convolution segmenter, a Network in Network, an EfficientNetV2-style CNN (fused MBConv, SiLU), an
EDSR-style super-resolution net and a temporal-shift video CNN; set 40 was exported at the start of session 36,
before any change, and only measured: a ResNet with CBAM attention (channel and spatial), a ResNeSt-style CNN
(split attention over two radix groups), a PSPNet-style segmenter (pyramid pooling), an N-BEATS forecaster, a DIN
recommender (attention over a behaviour sequence) and a PixelCNN (masked convolutions); set 41 was exported at the
end of session 36, after its last change, and only measured: a DPN-style dual-path CNN, a Res2Net-style CNN
(hierarchical splits), an SKNet-style CNN (selective kernels), a StyleGAN2-style generator (modulated
convolutions, per-sample weights as grouped Convs), a BoTNet-style hybrid (self-attention over a feature map)
and an AutoInt CTR model (attention over field embeddings); set 42 was exported at the end of session 36, after its
last executor change (a broadcast's rows carry their index), and only measured: a RepVGG-style CNN in its
training form (3x3, 1x1 and identity branches summed), an SRCNN-style super-resolution net (9x9 and 5x5
kernels), a MobileNetV1-style CNN (ReLU6), a decoder with ALiBi attention biases, a Performer-style encoder
(random-feature attention) and an FNet-style encoder (token mixing by a DFT as products); set 43 was exported at
the start of session 37, before any change, and only measured: a SegFormer-style encoder (attention over
spatially reduced keys, Mix-FFN with a depthwise Conv, an all-MLP decoder), a Linformer encoder (keys and values
projected along the sequence), a neural ODE unrolled as 6 RK4 steps of a small MLP, a DCN-v2 recommender
(cross layers), a TabNet-style model (GLU feature transformers, softmax attentive masks over 3 steps) and an
ECA-Net-style CNN (a 1-D Conv over pooled channels as attention); set 44 was exported in session 37, after its
executor changes (a Gemm's bias, DepthToSpace, Expand, a middle axis's Softmax, CumSum and ArgMax, GlobalMaxPool,
Cast, NonZero, OneHot, Sqrt), and only measured: a DETR-style detector (CNN, encoder, decoder over learned
queries, class and box heads), a BiSeNet-style segmenter ending in a per-pixel softmax over classes and their
ArgMax, a graph attention network over a masked dense adjacency, a TCN with weight-normalised convolutions (the
weights computed in the graph), a Conv-TasNet-style separator (dilated depthwise Conv1d blocks, PReLU, global
layer norm, a sigmoid mask) and a Set Transformer (induced set attention, pooling by attention); set 45 was exported
at the end of session 37, after its last change (an output written over evicted arena bytes), and only measured: a
CenterNet-style detector (heatmap peaks by a 3x3 max pool, TopK), a DGCNN (k nearest neighbours by TopK, edge
convolutions, a max over neighbours), a fast style-transfer network (reflection padding, instance norm, nearest
upsampling), a wav2vec2-style encoder (a Conv1d feature stack with GroupNorm and GELU, a grouped convolutional
position embedding, transformer layers), a decoder with grouped-query attention, RMSNorm and SwiGLU, and an
EfficientDet-style BiFPN (weighted fusion of resampled maps); set 46 was exported at the start of session 38, before
any change, and only measured: a mixture-of-experts transformer (top-2 gating scattered into dense gates), a
Mamba-style selective state-space model (its scan unrolled over 32 steps), an involution CNN (kernels generated per
pixel, applied through unfold), a log-mel audio CNN (an STFT as a strided Conv1d, Log), an octave-convolution CNN
(high and low frequency branches) and a convolutional VAE (reparameterised with fixed noise); set 47 was exported in
session 38 after its changes (the executor's GatherElements, TopK and row extremes; a reduction's, broadcast's and
TopK's rows, a GatherElements's cache lines in the cost model) and only measured: a PointNet++-style network (k
nearest neighbours by TopK, grouping by GatherElements), an RWKV-style recurrent language model (its time mixing
unrolled over 24 steps), a Temporal Fusion Transformer-style forecaster (gated residual networks, GLU, variable
selection), a SiamFC-style tracker (the template's features as per-sample depthwise weights), a Transformer-XL-style
encoder (relative position scores shifted by padding and reshaping) and an ESPNet-style segmenter (dilated
pyramid branches summed hierarchically); set 48 was exported at the end of session 38, after its last change (an
Add's, Sub's, Mul's or Div's own rate when it streams one operand), and only measured: a diffusion U-Net (a
sinusoidal timestep embedding added to every block), a graph isomorphism network over a dense adjacency, a
mixture-density MLP, a CoAtNet-style hybrid (MBConv stages, then attention with a relative position bias), a ResNet
with non-local blocks and a class-conditional generator (conditional BatchNorm: per-class scale and shift); set 49
was exported at the start of session 39, before any change, and set 50 at its end (docs/sim_accuracy.md); set 51
was exported at the start of session 40, before any change, and only measured: a neural cellular automaton (Sobel
perception by a depth-multiplier Conv, 8 steps unrolled), N-BEATS (trend and seasonality bases), axial attention,
xDeepFM (a compressed interaction network of outer products), gated-convolution inpainting and PatchTST (patches
by unfold, BatchNorm encoder layers); set 52 after its changes: EEGNet (depthwise spatial filters, 2 a channel), a
C3D-style video CNN (Conv3d), a MelGAN-style vocoder (ConvTranspose1d upsampling, reflection-padded dilated
stacks), Deep Sets, SASRec (causal self-attention over item histories) and a hypernetwork (weights generated per
sample, applied by batched products); set 53 was exported at the start of session 41, before any change, and only
measured: RetNet-style retention (a decay mask, a swish gate), a long-convolution sequence model (depthwise Conv1d
over 128 taps, gated), ColBERT-style late interaction (max-sim), an FCOS-style detection head over three levels
(GroupNorm towers shared by level), CondConv (per-sample expert kernels by a grouped Conv) and a Fourier neural
operator (truncated DFT by products); set 54 was exported in session 42 after its cost-model change, before it
was measured: GhostNet-style blocks (half the channels by a cheap depthwise Conv, concatenated), Perceiver-style
cross-attention (a latent array reading a long input), a WaveNet-style gated dilated causal stack, a dense
mixture of experts (a softmax gate over every expert's MLP), a small U-Net (ConvTranspose2d, skip concats) and a
graph convolutional network over a dense normalised adjacency; set 55 was exported in session 43 after its
executor changes (Einsum batches, small batched products), before it was measured: a transformer whose
projections and attention are einsums, a graph isomorphism network over many small dense graphs, ConvMixer
(9x9 depthwise and pointwise Convs, GELU), a dual-path RNN (a bidirectional LSTM within chunks, an LSTM
across them), slot attention (attention over a few slots, a GRU cell, 3 iterations) and a T5-style encoder with a
learned relative-position bias by bucket; set 56 was exported in session 45 after session 44's changes (the
Split epilogue, filter banks over rows, the recurrent fit's many-row shapes), before it was measured: a
DeepConvLSTM for sensor activity recognition (temporal Convs into two LSTM layers), a gated attention unit
(FLASH-style: one projection split into gates, a single-head relu^2 attention), ShallowConvNet for EEG
(temporal and full spatial Convs, squaring, average pooling, log), a shift MLP (channel groups shifted
spatially by slicing, pointwise MLPs), an Autoformer-style series-decomposition transformer (moving averages
by AvgPool1d over a replicate-padded series) and a convolutional recurrent speech enhancer (strided Conv2d
encoder, an LSTM over frames, ConvTranspose2d decoder with skips); set 57 was exported in session 46 after
session 45's changes (the executor's Pad, Convs whose rows are channels), before it was measured: a
RepLKNet-style CNN (31x31 and 15x15 depthwise kernels beside 5x5 ones), SchNet (pairwise distances, a
Gaussian expansion, filter-generating MLPs, continuous-filter convolutions), a MaxViT-style network (MBConv,
window and grid attention over permuted pixels), an RNN-T joint network (tanh of a frames x labels
broadcast sum, log-softmax), a quasi-recurrent network (fo-pooling unrolled step by step) and an
Informer-style encoder (distilling Conv1d, ELU, strided MaxPool1d between attention layers); set 58 was
exported in session 47 after session 46's changes (large-kernel depthwise Convs, the blocked Concat, middle-axis
sums), before it was measured: a LeViT-style network (Hardswish Conv stem, attention with a gathered bias
table and BatchNorm over tokens, shrinking attention), ESIM (BiLSTM encoders, soft alignment both ways,
enhancement, pooling), a message-passing GNN (edge MLPs over gathered endpoints, scatter-add aggregation), a
DeepSpeech2-style acoustic model (Conv2d with clipped ReLU, bidirectional GRUs), N-HiTS (max-pooled inputs,
MLP stacks, linear interpolation of coefficients) and a PointPillars-style detector (a PointNet over pillars,
max over points, scattered into a canvas, a 2-D backbone with ConvTranspose2d and a head); set 59 was exported
in session 48 after session 47's changes (padded Convs on the library's jit kernel, ScatterElements by rows),
before it was measured: SqueezeNet (Fire modules, ceil-mode max pooling), a PVT-style pyramid transformer
(spatial-reduction attention: keys and values from a strided Conv over the tokens), BiDAF (character CNN,
highway layers, BiLSTMs, context-query attention both ways), one decoding step of a GPT with a 128-token
key-value cache (past keys and values concatenated, outputs the new cache), a YOLOX-style detector (Focus
slicing, CSP blocks with SiLU, a decoupled head) and a Tacotron-style postnet (five 5-tap Conv1d with
BatchNorm and tanh over 80 mel bins); set 60 was exported in session 49 after session 48's change (a
recurrent cell's input projection costed on the GEMM model), before it was measured: an Inception-v3-style
network (factorised 1x7 and 7x1 Convs, an average-pool branch), an FT-Transformer over 24 numeric features,
a transformer of block-local attention over 1024 tokens, a PointNet++-style network (16 nearest neighbours by
TopK, gathered offsets, max over neighbours), a StyleGAN2-style generator (modulated, demodulated Convs run
as grouped Convs on computed weights, bilinear upsampling) and a diffusion U-Net (sinusoidal time embedding,
GroupNorm, self-attention at 8x8); set 61 was exported in session 50 after its changes (the last-level cache the
level after the core's own, a vector op's loop priced by its distance), before it was measured: Fastformer
(additive attention by global query and key vectors), a modern Hopfield layer (3 retrieval updates over 4096
stored patterns), a Point Transformer (vector attention over 16 nearest neighbours with relative-position MLPs),
a RetinaNet-style detector (an FPN over three levels, class and box towers shared by the levels), a Vision GNN
(kNN graphs over 196 patch nodes, max-relative graph convolution) and a UNet++ (nested dense skip pathways,
deep supervision); set 62 was exported in session 51 after its changes (short-row sums four rows at a time, a
short row repeated down a dense operand run against a tile), before it was measured: an E(n)-equivariant GNN
(pairwise offsets and distances over fully connected graphs of 64 nodes), a Nystromformer (landmark attention
with a Newton-Schulz pseudo-inverse), a CrossViT (two patch sizes, cross-attention of class tokens), SCINet
(even/odd splitting trees of convolutions for forecasting), soft k-means over 4096 embeddings and a deformable
attention head (sampling offsets per query, GridSample over two pyramid levels); set 63 was exported at the
start of session 52, after session 51's last change, before any measurement: a U^2-Net (nested residual U-blocks
with dilated Convs), gated attention pooling for multiple-instance learning over 2048 instances, a graph U-Net
(TopK node pooling and unpooling), a Music Transformer's relative attention (the skew by Pad and Reshape), log-domain
Sinkhorn matching with a dustbin (SuperGlue's optimal transport, ReduceLogSumExp) and a spiking CNN (leaky
integrate-and-fire neurons unrolled over 8 steps); set 64 was exported at the start of session 53, after session 52's
last change, before any measurement: a DDSP harmonic synthesiser (frame controls upsampled to samples, phase by
CumSum, 32 harmonics' sines summed), a two-stage detector's RoIAlign head (128 boxes over a stride-8 feature map,
two fully connected layers, class and box outputs), a NeRF MLP (positional encoding by sines and cosines of 10
frequencies, an 8-layer MLP with a skip concatenation), a TabTransformer (categorical column embeddings through a
transformer, concatenated with normalised numeric features), a bilinear CNN (the outer product of a feature map
with itself pooled over positions, signed square root, L2 normalisation) and a pointer network (an LSTM encoder,
an LSTM decoder unrolled over 12 steps with additive attention whose argmax picks the next input). Set 65 was
exported at the start of session 54 and measured before any change: a PWC-Net-style optical-flow cost volume (81
displacements sliced from the padded second frame), a hash-grid NeRF (multiresolution hash encoding: integer cell
indices hashed by a modular sum, Gathers from the tables, trilinear weights), a Reformer (LSH attention: buckets by
random rotations, positions sorted by bucket, chunked attention, unsorted back), a Whisper-style encoder-decoder
(Conv1d stem, cross-attention), Mask R-CNN's mask head and a hierarchical attention network (two bidirectional GRUs
with attention pooling). Set 66 was exported at the start of session 55 and measured before any change, at opset 17:
a spatio-temporal graph network (gated temporal convolutions, a graph convolution by the normalised adjacency),
Tacotron 2's decoder unrolled over 12 frames (LSTMCells, location-sensitive attention), an anchor-free detector with
box decoding and class-aware NonMaxSuppression, top-k sparse attention (the k largest scores kept by a
ScatterElements mask), an audio spectrogram transformer (frames by unfold, a DFT as MatMuls, a mel projection, LayerNormalization) and a SlowFast-
style two-pathway video network (Conv3d, a strided lateral connection). Set 67 was exported in session 56 after its
weight-stream change and before any measurement of these models, at opset 17: a GPT-style decoder over 8 tokens with a
tied 8000-word projection, a DeepSpeech-style stack of two GRUCells unrolled over 16 steps, a wide & deep recommender
(EmbeddingBag), a greedy GRU sequence-to-sequence model with Luong attention unrolled over 10 steps, a ConvNeXt-style
CNN (depthwise 7x7, channels-last LayerNorm and MLP) and a Perceiver-style model (cross-attention to 1024 inputs, 4
latent blocks sharing one set of weights). Set 68 was exported at the start of session 57, after session 56's last
change and before any measurement of these models, at opset 17: a LLaMA-style decoder over 16 tokens (RMSNorm, rotary
embeddings, SwiGLU, an untied 6000-word head), a BERT-style post-norm encoder with segment embeddings and a padding
mask, MobileNetV2 at width 0.5 written out, a two-layer bidirectional LSTM recogniser (ONNX LSTM), ViT-S/16 cut to 6
layers at batch 1, and a single-scale YOLO-style detector decoding its boxes in the graph. Set 69 was exported in
session 57 after its changes (a Slice's rows, a lone op's own call, a product's arithmetic and stream taking turns)
and only measured, at opset 17: a T5-style decoder over 12 tokens cross-attending to 32 encoder states, ResNet-34 at
160, a wide MLP of 16 rows over 4096-wide layers, a WaveRNN-style GRUCell vocoder unrolled over 16 steps, a
SqueezeBERT-style encoder (grouped 1-D convolutions for its projections) and a DeiT-style ViT with class and
distillation tokens. Set 70 was exported in session 58 after its change (a product's stream share by its weight's
distance) and only measured, at opset 17: a Swin-style network (shifted 7x7 windows by torch.roll, patch merging), a
Conformer encoder (half-step Swish FFNs, a convolution module with GLU, depthwise Conv1d and BatchNorm), torchvision's
EfficientNet-B0 at batch 4 and 128, a DLRM-style recommender (eight embedding tables, pairwise dot interactions), a small U-Net
(ConvTranspose up-sampling, concatenated skips) and two GPT-2-sized layers over 4 tokens with a tied 32000-word head.
Set 71 was exported in session 58 after its second change (a Gather touches the rows it picks) and only measured, at
opset 17: a PointNet classifier (shared MLPs as Conv1d, max over points), a TCN (dilated causal Conv1d with
residuals), a GhostNet-style CNN (half the channels by cheap depthwise operations, concatenated), a two-tower
retrieval model (mean-pooled embeddings, a dot-product score), an RNN-T-style transducer (LSTM encoder and
prediction network, a joint network over every frame and label) and an MLP-Mixer (token- and channel-mixing MLPs).
Set 72 was exported in session 59 after its change (a pointwise Conv's input and output as cold as a product's) and
only measured, at opset 17: a capsule network (primary capsules, three iterations of dynamic routing, squash), a
two-layer graph attention network over 512 nodes (8 heads, LeakyReLU scores masked by a dense adjacency), an
R(2+1)D-style video CNN (Conv3d factorised into 1x3x3 and 3x1x1), torchvision's ResNeXt-50 32x4d at batch 2 and
112, a PTB-style two-layer LSTM language model (650 units, 35 steps, a tied 10000-word projection) and a
Siamese change-detection CNN (a shared encoder over two images, their absolute difference, an up-sampling decoder).
Set 73 was exported in session 59 after its third change (a reduction over a middle axis at its own rate) and only
measured, at opset 17: an RBF network (squared distances of 4096 points to 512 centres by a product, Gaussian
activations, a linear head), a PatchGAN discriminator (strided 4x4 Convs, InstanceNorm, LeakyReLU over an image pair),
an octave-convolution CNN (high- and low-frequency branches exchanging by average pooling and nearest up-sampling),
a sparsemax attention layer over 64 tokens (the scores sorted by TopK, a cumulative sum, the threshold), a
TabNet-style tabular model reduced to sequential feature-mask steps (batch 256, softmax masks, GLU blocks) and
torchvision's GoogLeNet at batch 4 and 96.
Set 74 was exported in session 60 before any change and only measured, at opset 17: an SRU language-model encoder
(two layers of simple recurrent units unrolled over 64 steps, batch 16), a LightConv-style encoder (softmax-normalised
depthwise kernels shared over heads, applied by shifted slices), a temporal-shift ResNet (a fifth of the channels
shifted along 8 frames before each block), a deep spatial autoencoder's keypoint head (spatial softmax over 64x64
maps, expected x and y), an echo state network (a 512-unit leaky tanh reservoir over 50 steps, a linear read-out)
and torchvision's ResNet-18 at batch 16 and 64.
Set 75 was exported in session 60 after its two changes (one copy of a graph output; narrow Gemm heads in the
calibration) and only measured, at opset 17: an induced set attention block encoder (32 inducing points over sets of
512), a Manhattan LSTM sentence-pair model (a shared LSTM, exp(-L1) of the last states), an AdaIN style-transfer
network (a VGG-like encoder, instance statistics swapped, a nearest-upsampling decoder), a Nature DQN over 84x84
frame stacks at batch 32, a Temporal-Fusion-Transformer-style variable selection network (gated residual networks,
softmax weights over 16 variables) and torchvision's SqueezeNet 1.0 at batch 8 and 128.
Set 76 was exported in session 61 before any change and only measured, at opset 17: an IndRNN classifier (two layers
of per-unit recurrences unrolled over 100 steps, batch 32), a CNN tagger with a linear-chain CRF's Viterbi pass
unrolled over 32 tokens, a Hyena-style long-convolution model (depthwise kernels of 127 over 1024 positions, gated),
an attention-free transformer (AFT-simple: a softmax over tokens of K weighting V, gated by sigmoid(Q)), a JPEG-style
8x8 block DCT round trip over 256x256 images at batch 16, and torchvision's DenseNet-121 at batch 4 and 128.
Set 77 was exported in session 62 after its calibration change (the far tier's ops sized past the own cache) and
before any measurement of these models, at opset 17: a Zero-DCE++-style low-light enhancer (curve maps from a
quarter-size CNN, upsampled, 8 curve iterations over 4x3x512x512), a NeRF-style MLP over 16384 points with a
10-frequency sin/cos encoding, a minGRU language model unrolled over 64 steps, a log-mel audio front end (an STFT
as a strided Conv1d, power, a mel product, log) with a small CNN, torchvision's LR-ASPP MobileNetV3 segmenter at
batch 2 and 256, and torchvision's EfficientNetV2-S at batch 2 and 128.
Set 78 was exported in session 62 after the depthwise Conv's passes over its activations entered the cost model, to
try that change on models it was not made on, before any measurement of them, at opset 17: torchvision's
MobileNetV3-Large at batch 8 and 224, MNASNet 1.0 at batch 4 and 224, EfficientNet-B0 at batch 4 and 224, ConvNeXt-T
at batch 1 and 224, MobileNetV2 at batch 1 and 224, and RegNetY-400MF at batch 8 and 160.
Set 79 was exported in session 64 before any change of that session and before any measurement of these models,
at opset 17: torchvision's ShuffleNetV2 x1.0 at batch 8 and 224, GoogLeNet at batch 2 and 224, RegNetX-800MF at
batch 4 and 224, MobileNetV3-Small at batch 16 and 224, ResNet-18 at batch 8 and 160, EfficientNet-B1 at batch 2
and 240, and a 4-layer pre-norm transformer encoder (d 256, 8 heads, GELU) at batch 4 over 128 tokens.
Set 80 was exported in session 65 before any change of that session and before any measurement of these models,
at opset 17: torchvision's AlexNet at batch 8 and 224, Inception-v3 at batch 1 and 299, ResNeXt-50 32x4d at batch 2
and 192, SqueezeNet 1.1 at batch 16 and 224, DenseNet-121 at batch 2 and 224, RegNetY-800MF at batch 4 and 192, and
a 1-D keyword-spotting CNN (Conv1d, BatchNorm, ReLU, MaxPool1d, grouped Conv1d blocks) at batch 32 over 16000 samples.
Set 81 was exported in session 65 after its pool change (strided taps at their own rate, a pool's rows its bounded
taps) and before any measurement of these models, at opset 17: torchvision's ResNet-34 at batch 4 and 160,
SqueezeNet 1.0 at batch 4 and 224, MNASNet 0.75 at batch 8 and 192, an M5-style raw-audio CNN (Conv1d stride 4,
MaxPool1d of 4 after each of 4 blocks) at batch 16 over 8000 samples, and a C3D-style video CNN (Conv3d, MaxPool3d
of 1x2x2 then 2x2x2) at batch 2 over 8 frames of 64x64.
Set 82 was exported in session 66 after its change to pointwise Convs over activations beyond the last-level cache
and before any measurement of these models, at opset 17: torchvision's MobileNetV2 at batch 16 and 160, MNASNet 1.3
at batch 4 and 224, ShuffleNetV2 x1.5 at batch 8 and 192, ResNet-50 at batch 2 and 224, an Xception-style
separable-conv net at batch 8 and 128, and an MLP-Mixer (4 blocks, 64 tokens of 128) at batch 16 over 64x64.

Set 83 was exported at the start of session 67, before any change or measurement of that session, at opset 17:
torchvision's ResNet-101 at batch 1 and 192, Wide ResNet-50-2 at batch 1 and 160, EfficientNet-B0 at batch 4 and
192, and MobileNetV3-Large at batch 8 and 224, a small U-Net (ConvTranspose up, Concat skips) at batch 2 and 128,
and a post-norm transformer encoder (4 layers, 256 wide, 4 heads) at batch 8 over 64 tokens.

Set 84 was exported at the start of session 68, before any change or measurement of that session, at opset 17:
torchvision's DenseNet-169 at batch 1 and 192, RegNetX-400MF at batch 8 and 160, MNASNet 0.5 at batch 16 and 160,
ShuffleNetV2 x0.5 at batch 16 and 192, VGG-13 (no batch norm) at batch 2 and 224, and a ConvMixer (256 wide,
depth 6, 9x9 depthwise kernels over 8x8 patches) at batch 4 over 128x128.

Set 85 was exported at the start of session 69, before any change or measurement of that session, at opset 17:
torchvision's MNASNet 0.75 at batch 16 and 128, MobileNetV3-Small at batch 32 and 160, ShuffleNetV2 x1.0 at batch
16 and 128, RegNetY-400MF at batch 8 and 128, MobileNetV2 at width 0.35 at batch 8 and 160, and a narrow
encoder-decoder written here (8-32 channels, 1x1 mixing Convs, nearest upsampling) at batch 4 over 128x128.

Set 86 was exported at the start of session 70, before any change or measurement of that session, at opset 17:
torchvision's MNASNet 1.0 at batch 8 and 160, MobileNetV3-Large at batch 16 and 128, ResNet-18 at batch 16 and
112, EfficientNet-B0 at batch 8 and 128, ShuffleNetV2 x1.5 at batch 16 and 160, and a denoiser written here
(depthwise-separable blocks 24-48 channels wide, no downsampling, the input minus a predicted residual) at batch 4 over 160x160.

Set 87 was exported in session 70 after the pointwise Conv's far-activation term was written and before it was
measured on this set, at opset 17: torchvision's MobileNetV2 at width 0.75 at batch 8 and 160, ResNet-34 at batch 8
and 128, MNASNet 1.3 at batch 8 and 128, EfficientNet-B1 at batch 4 and 160, RegNetY-800MF at batch 8 and 128, and
a per-pixel MLP written here (1x1 Convs 32 -> 128 -> 32 with GELU, residual, four blocks) at batch 4 over 96x96.

Set 88 was exported at the end of session 70, after its three cost-model changes and before any measurement of it,
at opset 17: torchvision's ResNet-50 at batch 4 and 128, GoogLeNet at batch 4 and 128, DenseNet-121 at batch 4 and
96, SqueezeNet 1.0 at batch 8 and 160, ShuffleNetV2 x2.0 at batch 8 and 160, and a small CNN written here whose
classifier is three fully connected layers (512 -> 2048 -> 2048 -> 1000: 4-16 MB weights) at batch 16 over 64x64.

Set 89 was exported at the start of session 71, before any change or measurement of that session, at opset 17:
torchvision's RegNetX-800MF at batch 8 and 128, EfficientNet-B2 at batch 4 and 128, ResNeXt-50 32x4d at batch 4 and
128, SqueezeNet 1.1 at batch 16 and 160, MobileNetV3-Small at batch 32 and 128, and a token feed-forward stack written
here (LayerNorm, 64 -> 256 -> 64 Linear layers with GELU, residual, four blocks) over 8 x 1024 tokens.

Set 90 was exported in session 71 after its changes (a vector op's far curve, a Resize's modes, a global pool's
planes) and before any measurement of it, at opset 17: torchvision's RegNetY-1.6GF at batch 4 and 128,
EfficientNet-B3 at batch 2 and 160, DenseNet-169 at batch 4 and 96, MNASNet 0.5 at batch 32 and 128, ResNet-101 at
batch 2 and 128, and a small FPN-style segmenter written here (strided Convs with squeeze-and-excitation blocks, a
top-down path of bilinear 2x upsampling and lateral 1x1 Convs) at batch 4 over 128x128.

Set 91 was exported in session 71 after its executor change (the rows-dot loop's finish in registers) and its
last cost-model change (an evicted input's rate by its distance), before any measurement of it, at opset 17:
torchvision's EfficientNet-B0 at batch 16 and 96, RegNetX-1.6GF at batch 4 and 128, MobileNetV3-Large at batch 8 and
160, SqueezeNet 1.0 at batch 16 and 128, Wide ResNet-50-2 at batch 2 and 112, and a keypoint heatmap network written
here (strided Convs with squeeze-and-excitation, nearest 2x upsampling with skip Adds, a 1x1 heatmap head) at batch 8
over 96x96.

Set 92 was exported in session 72 after its calibration changes (a vector op's far curve at the Relu's own
distance, GlobalMaxPool timed for its own figures, a merge that keeps figures only later calibrations wrote),
before any measurement of it, at opset 17: torchvision's GoogLeNet at batch 8 and 112, EfficientNet-B1 at batch 8
and 112, ShuffleNetV2 x1.0 at batch 32 and 96, RegNetY-400MF at batch 16 and 128, ResNet-50 at batch 16 and 64,
and a keyword-spotting network written here (a depthwise-separable CNN over a 40 x 98 log-mel spectrogram, global
average and max pools concatenated before the classifier) at batch 32.

Set 93 was exported in session 72 after its executor change (activations to and from channels-last by the
executor's own tiles), before any measurement of it, at opset 17: torchvision's ResNeXt-50 32x4d at batch 8 and 96,
RegNetX-800MF at batch 16 and 96, MobileNetV2 at batch 32 and 96, DenseNet-121 at batch 8 and 64, EfficientNet-B0 at
batch 8 and 160, and a dilated residual network written here for dense prediction (3x3 Convs at dilations 1, 2, 4
and 8 with BatchNorm, ReLU and skip Adds, a 1x1 head of 21 classes) at batch 4 over 80x80.

Set 94 was exported in session 72 after its last cost-model change (a depthwise Conv's passes from beyond the
last-level cache not charged cold twice), before any measurement of it, at opset 17: torchvision's MNASNet 1.0 at
batch 16 and 96, EfficientNet-B2 at batch 8 and 96, ShuffleNetV2 x0.5 at batch 32 and 96, RegNetY-800MF at batch 16
and 96, MobileNetV3-Large at batch 32 and 96, and a two-stream action network written here (a 3-D Conv stem over 8
frames, (2+1)-D residual blocks, a temporal average and a classifier) at batch 2 over 8 x 56 x 56.

Set 95 was exported in session 73 before any change or measurement of that session, at opset 17: torchvision's
ResNet-34 at batch 16 and 96, RegNetX-400MF at batch 16 and 128, EfficientNet-B3 at batch 4 and 128, MobileNetV3-Small
at batch 32 and 96, GoogLeNet at batch 16 and 96, and a ResNet-D network written here (a three-Conv stem, grouped
bottlenecks, shortcuts that average-pool before their 1x1 Conv) at batch 8 and 96.

Set 96 was exported in session 73 after its first change (a squeeze-excitation's 1x1 Convs over a batch as one
product), before any measurement of it, at opset 17: torchvision's RegNetY-400MF at batch 32 and 96, EfficientNet-B0
at batch 16 and 128, MobileNetV3-Large at batch 4 and 192, MNASNet 1.3 at batch 16 and 96, ResNet-18 at batch 32
and 64, and a temporal-convolution keyword spotter written here (1-D residual blocks with squeeze-excitation over
40 coefficients x 101 frames) at batch 32.

Set 97 was exported in session 73 after its second change (a squeeze-excitation Conv over a batch sharing the
Gemms' library code), before any measurement of it, at opset 17: torchvision's EfficientNet-B1 at batch 16 and 96,
MobileNetV3-Small at batch 16 and 160, MNASNet 0.75 at batch 32 and 96, RegNetY-800MF at batch 32 and 64,
SqueezeNet 1.1 at batch 32 and 96, and a 1-D speech encoder written here (depthwise-separable 1-D Convs with
hard-swish and squeeze-excitation over 64 channels x 200 frames) at batch 16.

Set 98 was exported in session 74 before any change or measurement of it, at opset 17: torchvision's
ShuffleNetV2 x1.5 at batch 32 and 96, DenseNet-121 at batch 16 and 64, MobileNetV2 at batch 8 and 192,
RegNetX-800MF at batch 32 and 64, EfficientNet-B2 at batch 16 and 96, and a small U-Net written here (strided
Convs down, transposed Convs up, skip Concats, 32 channels at 96^2) at batch 4.

Set 99 was exported in session 74 after its change (a batch of pointwise Convs over a few positions an
image gathered into one product), before any measurement of it, at opset 17: torchvision's ResNet-50 at batch
32 and 64, MobileNetV3-Large at batch 16 and 96, MNASNet 1.0 at batch 32 and 64, ResNeXt-50 32x4d at batch 8
and 64, RegNetX-1.6GF at batch 16 and 80, and a bottleneck ResNet for 28^2 inputs written here at batch 64.

Set 100 was exported in session 74 after set 99's two runs, before any measurement of it, at opset 17:
torchvision's EfficientNet-B0 at batch 32 and 64, MNASNet 0.5 at batch 64 and 64, RegNetX-3.2GF at batch 8 and
96, ResNet-101 at batch 8 and 64, ShuffleNetV2 x1.0 at batch 64 and 64, and an inverted-residual network with
5x5 depthwise Convs written here (48^2 inputs down to 3x3 planes, up to 960 channels) at batch 16.

Set 101 was exported in session 75 before any change or measurement of it, at opset 17: torchvision's
RegNetY-400MF at batch 32 and 64, MobileNetV3-Small at batch 64 and 96, ResNet-18 at batch 64 and 64, Wide
ResNet-50-2 at batch 4 and 96, EfficientNet-B1 at batch 16 and 80, and a ResNeXt-style network for 32^2 inputs
with 8-group 3x3 Convs written here (32^2 down to 4x4 planes) at batch 32.

Set 102 was exported in session 75 after its two changes (a grouped Conv's ReLU on channel blocks narrower
than a vector as a pass of its own; the grouped kind's weights once an image), before any measurement of it,
at opset 17: torchvision's ResNeXt-101 32x8d at batch 2 and 64, RegNetX-400MF at batch 64 and 64, RegNetY-1.6GF
at batch 8 and 96, ShuffleNetV2 x2.0 at batch 16 and 96, DenseNet-169 at batch 8 and 64, and a network of
4-channel-a-group 3x3 Convs for 32^2 inputs written here (32^2 down to 4x4 planes) at batch 32.

Set 103 was exported in session 75 after its third change (a pointwise Conv's weight stream), before any
measurement of it, at opset 17: torchvision's EfficientNet-B3 at batch 8 and 64, MobileNetV2 at batch 32 and 64,
SqueezeNet 1.0 at batch 32 and 64, RegNetY-800MF at batch 8 and 64, ResNet-34 at batch 16 and 64, and a stack of
wide pointwise Convs written here (1536 channels over 8x8 and 4x4 planes, residual) at batch 4.

Set 104 was exported in session 75 after its fourth change (a gathered pointwise product's copy back), before
any measurement of it, at opset 17: torchvision's MobileNetV3-Large at batch 32 and 64, ResNet-50 at batch 8 and
96, ShuffleNetV2 x0.5 at batch 64 and 64, MNASNet 1.3 at batch 16 and 64, RegNetX-400MF at batch 16 and 96, and a
stack of pointwise Convs over 3x3 planes written here (96 to 384 channels) at batch 32.

Set 105 was exported in session 76 before any change, at opset 17: torchvision's RegNetY-800MF at batch 16 and
64, RegNetX-1.6GF at batch 8 and 96, GoogLeNet at batch 16 and 64, MNASNet 0.75 at batch 32 and 64, ResNeXt-50
32x4d at batch 16 and 64, and a net of strided grouped Convs over small planes written here (8 to 32 channels a
group) at batch 16.

Set 106 was exported in session 76 after its executor change (a gathered pointwise product's copies over 2x2
planes in tiles), before any measurement of it, at opset 17: torchvision's ViT-B/32 at batch 2 and 224, Swin-T at
batch 1 and 224, ConvNeXt-Tiny at batch 2 and 128, EfficientNet-B0 at batch 24 and 64, a pre-norm transformer
encoder written here (6 layers, 384 wide, 6 heads) at batch 4 over 96 tokens, and an LSTM language model written
here (2 layers of 320 over 64 tokens, a 2000-word vocabulary) at batch 16.

Set 107 was exported in session 76 after its cost-model changes (a product's far weight under its arithmetic,
batches through wide recurrent cells in the calibration), before any measurement of it, at opset 17: torchvision's
ViT-B/16 at batch 1 and 224, ConvNeXt-Small at batch 1 and 128, EfficientNet-V2-S at batch 4 and 96, a post-norm
BERT-style encoder written here (6 layers, 512 wide, 8 heads) at batch 4 over 128 tokens, a speech encoder written
here (2 bidirectional GRU layers of 256 over 100 frames of 80 features) at batch 8, and a bidirectional LSTM tagger
written here (a 3000-word embedding of 128, 256 a direction, 40 tokens) at batch 32.

Set 108 was exported in session 76 after the same changes, before any measurement of it, at opset 17:
torchvision's R(2+1)D-18 at batch 2 over 8 frames of 80, MC3-18 at batch 1 over 8 frames of 96, DeepLabV3 on
MobileNetV3-Large at batch 2 and 192, FCN-ResNet50 at batch 1 and 192, LR-ASPP on MobileNetV3-Large at batch 4
and 128, and a GPT-style causal decoder written here (6 pre-norm layers, 384 wide, a 5000-word head) at batch 2
over 128 tokens.

Set 109 was exported in session 77 before any change or measurement of it, at opset 17: torchvision's VGG-13-BN
at batch 1 and 224, Inception-v3 at batch 2 and 160, Wide ResNet-50-2 at batch 8 and 64, ShuffleNetV2 x1.5 at batch
32 and 64, a U-Net written here (transposed-Conv upsampling, skip concatenations) at batch 4 and 128, and a
Conformer-style audio encoder written here (4 blocks: half-step feed-forwards, attention, a gated depthwise Conv1d
module) at batch 4 over 200 frames.

Set 110 was exported in session 77 after its cost-model change (a Pad's row steps), before any measurement of
it, at opset 17: torchvision's GoogLeNet at batch 8 and 128, and nets written here: a TensorFlow-style network of
inverted residuals with explicit asymmetric "same" pads before its strided Convs at batch 8 and 112, a WaveNet-
style stack (causal pads, dilated Conv1d, gated tanh and sigmoid, residual and skip paths) at batch 4 over 4000
samples, a ResNet-D (a deep stem, shortcuts downsampled by 2x2 average pools without the pads counted) at batch 8
and 96, a style-transfer network (reflection pads, instance norms, nearest upsampling) at batch 2 and 160, and
a TCN classifier over 1-D features with replicate pads at batch 16 over 512 steps.

Set 111 was exported in session 77 after its fusion change (the held-bytes check), before any measurement of it,
at opset 17: torchvision's detectors SSDlite320 on MobileNetV3-Large, Faster R-CNN on MobileNetV3-Large 320 FPN
and RetinaNet on ResNet-50 FPN (one 320x320 image, 256x256 for RetinaNet; boxes, scores and labels out, their
post-processing included), RAFT-small optical flow over two 128x128 images (6 flow updates), an MLP-Mixer
written here (8 layers, 256 wide, 64 patches of 16x16) at batch 8 and 128, and a DGCNN-style point-cloud
classifier written here (k-nearest neighbours by TopK, edge features by Gather) at batch 4 over 1024 points.

Set 112 was exported in session 77 after its post-processing changes (a GatherND's tuples, GatherND and NonZero
calibrated, a Resize that keeps its size), before any measurement of it, at opset 17: torchvision's SSD300 on
VGG-16 (one 300x300 image), Faster R-CNN on MobileNetV3-Large FPN and Keypoint R-CNN on ResNet-50 FPN (one image,
their transforms set to 256 and 192), and a YOLO-style detector written here (a small CSP-like backbone, three
heads of 3 anchors and 20 classes, its boxes decoded, thresholded by NonZero and GatherND, and kept by batched
NonMaxSuppression) on one 320x320 image.

Set 113 was exported in session 78 before any change of that session, at opset 17: torchvision's Mask R-CNN on
ResNet-50 FPN (one image, its transform set to 192; boxes, scores, labels and pasted masks out) and Swin-V2-T
(batch 1 at 256), and nets written here: a diffusion-style U-Net (a sinusoidal timestep embedding, group norms,
SiLU, self-attention at 16x16) at batch 2 and 32, an RNN-T-style transducer (an LSTM encoder over 100 frames, an
embedding and LSTM prediction net over 20 labels, a joint network over every frame and label pair) at batch 2,
and a BiFPN-style neck (normalised learned weights, depthwise-separable Convs, nearest upsampling and max-pool
downsampling over five levels) at batch 4 over 256x256.

Set 114 was exported in session 78 after its changes (a loop's growing values at their mean shape, an op's
own loop by its distance, an op with nothing to do), before any measurement of it, at opset 17: torchvision's
FCOS on ResNet-50 FPN and Faster R-CNN v2 on ResNet-50 FPN (one image, their transforms set to 192), and a
greedy decoder written here and scripted (48 steps, each attending over its generated sequence, one token longer
a step; the exporter unrolls the scripted loop of a constant count, so the file has no Loop node) over a memory
of 32 tokens 256 wide.

Set 115 was exported in session 79 before any change, at opset 17: torchvision's RetinaNet v2 on ResNet-50 FPN
(one image, its transform set to 192, GroupNorm heads), a VQ-VAE written here (a strided conv encoder, a
codebook of 512 x 64 looked up by its nearest entry, a transposed-conv decoder; batch 2 at 64x64), a GRU
decoder written here and scripted (hidden 512, its 6 MB of weights past the last-level cache, one step per
memory token; the trip count comes from the input's shape, so the file keeps a Loop), and an
EfficientFormer-style net written here (pooling token mixers at four stages, attention at the last; batch 4
at 224).

Set 116 was exported in session 79 after its changes (a ScatterElements's copy, updates and rows apart; a
loop's carried sequence typed by its trace), before any measurement of it, at opset 17: torchvision's Mask
R-CNN v2 on ResNet-50 FPN (one image, its transform set to 192), a graph isomorphism network written here
(4096 nodes of 64 features, 32768 random edges, each layer's messages summed onto their receivers by a
scatter-add), and an LSTM-cell decoder written here and scripted (hidden 384, one step per memory token, its
per-step outputs collected in a list; the trip count from the input's shape, so the file keeps a Loop
carrying a sequence).

Set 117 was exported in session 79 after its changes (the last: a node's own state a run away, cold_call_curve
"node"), before any measurement of it, at opset 17: torchvision's Faster R-CNN on ResNet-50 FPN (v1; one
image, its transform set to 192), a transformer decoder written here and scripted (one step per memory token,
each attending over a key-value cache that grows by a row a step; the trip count from the input's shape, so
the file keeps a Loop whose carried cache grows), and a tabular net written here (26 categorical columns each
looked up in its own table of 1000-50000 rows, 13 numeric ones, a small attention over the columns, batch 64).

Set 118 was exported in session 80 after its changes, before any measurement of it, at opset 17: a point-cloud
net written here and scripted (farthest-point sampling of 128 centres from 1024 points in a Loop whose trip
count comes from the input's shape, each step an ArgMax and a Gather; then each centre's 16 nearest points by
TopK, a shared MLP and a max over each group), a greedy translation decoder written here and scripted (one
step per memory token: the last token's embedding looked up, a self-attention over the tokens so far and a
cross-attention over the memory, an ArgMax for the next token), and a diffusion-style UNet written here
(GroupNorm, SiLU, a sinusoidal time embedding, attention at 8x8, batch 2 at 32x32).

Set 119 was exported in session 81 after its changes (the last: the executor's time outside a node by its
distance, cold_call_curve "outside"), before any measurement of it, at opset 17: torchvision's Swin V2-S (one
image at 128), a universal transformer written here and scripted whose shared layer runs until every token's
accumulated halting probability passes 0.99 (adaptive computation time: the Loop's condition comes from the
data, at most 12 steps), and a k-means layer written here and scripted (4096 points of 32 features into 64
centres, Lloyd steps until no centre moves more than 1e-4 or 20 steps: distances, an ArgMin, a one-hot
product for the new centres).

Set 120 was exported in session 82 after its changes (the last: a comparison's broadcast rows and int64
comparisons' own figures), before any measurement of it, at opset 17: torchvision's Keypoint R-CNN (ResNet-50
FPN, one image at 192, post-processing and keypoint heatmaps included), a conjugate-gradient solver written
here and scripted (64 systems of 48 unknowns whose matrices a layer makes from the input, steps until every
residual falls below 1e-8 or 25 steps), and a streaming attention encoder written here and scripted (chunks of
16 frames in a Loop, each attending over a cache of the last 48 keys and values that the loop carries and
trims, the chunks' outputs gathered in a sequence).

Needs Debian's python3-torch (1.13) and python3-torchvision (0.14). Writes OUT_DIR/NAME.onnx (opset 13).
Exit 77 when torch cannot be imported.
"""
import os
import sys


def main():
    args = sys.argv[1:]
    which = args[2] if len(args) == 3 and args[1] == "--set" else "1"
    if len(args) not in (1, 3) or which not in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31", "32", "33", "34", "35", "36", "37", "38", "39", "40", "41", "42", "43", "44", "45", "46", "47", "48", "49", "50", "51", "52", "53", "54", "55", "56", "57", "58", "59", "60", "61", "62", "63", "64", "65", "66", "67", "68", "69", "70", "71", "72", "73", "74", "75", "76", "77", "78", "79", "80", "81", "82", "83", "84", "85", "86", "87", "88", "89", "90", "91", "92", "93", "94", "95", "96", "97", "98", "99", "100", "101", "102", "103", "104", "105", "106", "107", "108", "109", "110", "111", "112", "113", "114", "115", "116", "117", "118", "119", "120"):
        print(__doc__, file=sys.stderr)
        return 2
    out = args[0]
    try:
        import torch
        import torchvision
    except ImportError as e:
        print(f"no torch/torchvision here ({e}): nothing exported", file=sys.stderr)
        return 77
    os.makedirs(out, exist_ok=True)
    if which == "2":
        return export_second_set(torch, torchvision, out)
    if which == "3":
        return export_third_set(torch, torchvision, out)
    if which == "4":
        return export_fourth_set(torch, torchvision, out)
    if which == "5":
        return export_fifth_set(torch, torchvision, out)
    if which == "6":
        return export_sixth_set(torch, torchvision, out)
    if which == "7":
        return export_seventh_set(torch, torchvision, out)
    if which == "8":
        return export_eighth_set(torch, torchvision, out)
    if which == "9":
        return export_ninth_set(torch, torchvision, out)
    if which == "10":
        return export_tenth_set(torch, torchvision, out)
    if which == "11":
        return export_eleventh_set(torch, torchvision, out)
    if which == "12":
        return export_twelfth_set(torch, torchvision, out)
    if which == "13":
        return export_thirteenth_set(torch, torchvision, out)
    if which == "14":
        return export_fourteenth_set(torch, torchvision, out)
    if which == "15":
        return export_fifteenth_set(torch, torchvision, out)
    if which == "16":
        return export_sixteenth_set(torch, torchvision, out)
    if which == "17":
        return export_seventeenth_set(torch, torchvision, out)
    if which == "18":
        return export_eighteenth_set(torch, torchvision, out)
    if which == "19":
        return export_nineteenth_set(torch, torchvision, out)
    if which == "20":
        return export_twentieth_set(torch, torchvision, out)
    if which == "21":
        return export_twenty_first_set(torch, torchvision, out)
    if which == "22":
        return export_twenty_second_set(torch, torchvision, out)
    if which == "23":
        return export_twenty_third_set(torch, torchvision, out)
    if which == "25":
        return export_twenty_fifth_set(torch, torchvision, out)
    if which == "26":
        return export_twenty_sixth_set(torch, torchvision, out)
    if which == "27":
        return export_twenty_seventh_set(torch, out)
    if which == "28":
        return export_twenty_eighth_set(torch, out)
    if which == "29":
        return export_twenty_ninth_set(torch, out)
    if which == "30":
        return export_thirtieth_set(torch, out)
    if which == "31":
        return export_thirty_first_set(torch, out)
    if which == "32":
        return export_thirty_second_set(torch, out)
    if which == "33":
        return export_thirty_third_set(torch, out)
    if which == "34":
        return export_thirty_fourth_set(torch, out)
    if which == "35":
        return export_thirty_fifth_set(torch, out)
    if which == "36":
        return export_thirty_sixth_set(torch, out)
    if which == "37":
        return export_thirty_seventh_set(torch, out)
    if which == "38":
        return export_thirty_eighth_set(torch, out)
    if which == "39":
        return export_thirty_ninth_set(torch, out)
    if which == "40":
        return export_fortieth_set(torch, out)
    if which == "41":
        return export_forty_first_set(torch, out)
    if which == "42":
        return export_forty_second_set(torch, out)
    if which == "43":
        return export_forty_third_set(torch, out)
    if which == "44":
        return export_forty_fourth_set(torch, out)
    if which == "45":
        return export_forty_fifth_set(torch, out)
    if which == "46":
        return export_forty_sixth_set(torch, out)
    if which == "47":
        return export_forty_seventh_set(torch, out)
    if which == "48":
        return export_forty_eighth_set(torch, out)
    if which == "49":
        return export_forty_ninth_set(torch, out)
    if which == "50":
        return export_fiftieth_set(torch, out)
    if which == "51":
        return export_fifty_first_set(torch, out)
    if which == "52":
        return export_fifty_second_set(torch, out)
    if which == "53":
        return export_fifty_third_set(torch, out)
    if which == "54":
        return export_fifty_fourth_set(torch, out)
    if which == "55":
        return export_fifty_fifth_set(torch, out)
    if which == "56":
        return export_fifty_sixth_set(torch, out)
    if which == "57":
        return export_fifty_seventh_set(torch, out)
    if which == "58":
        return export_fifty_eighth_set(torch, out)
    if which == "59":
        return export_fifty_ninth_set(torch, out)
    if which == "60":
        return export_sixtieth_set(torch, out)
    if which == "61":
        return export_sixty_first_set(torch, out)
    if which == "62":
        return export_sixty_second_set(torch, out)
    if which == "63":
        return export_sixty_third_set(torch, out)
    if which == "64":
        return export_sixty_fourth_set(torch, out)
    if which == "65":
        return export_sixty_fifth_set(torch, out)
    if which == "66":
        return export_sixty_sixth_set(torch, torchvision, out)
    if which == "67":
        return export_sixty_seventh_set(torch, out)
    if which == "68":
        return export_sixty_eighth_set(torch, out)
    if which == "69":
        return export_sixty_ninth_set(torch, torchvision, out)
    if which == "70":
        return export_seventieth_set(torch, torchvision, out)
    if which == "71":
        return export_seventy_first_set(torch, out)
    if which == "72":
        return export_seventy_second_set(torch, torchvision, out)
    if which == "73":
        return export_seventy_third_set(torch, torchvision, out)
    if which == "74":
        return export_seventy_fourth_set(torch, torchvision, out)
    if which == "75":
        return export_seventy_fifth_set(torch, torchvision, out)
    if which == "76":
        return export_seventy_sixth_set(torch, torchvision, out)
    if which == "77":
        return export_seventy_seventh_set(torch, torchvision, out)
    if which == "78":
        return export_seventy_eighth_set(torch, torchvision, out)
    if which == "79":
        return export_seventy_ninth_set(torch, torchvision, out)
    if which == "80":
        return export_eightieth_set(torch, torchvision, out)
    if which == "81":
        return export_eighty_first_set(torch, torchvision, out)
    if which == "82":
        return export_eighty_second_set(torch, torchvision, out)
    if which == "83":
        return export_eighty_third_set(torch, torchvision, out)
    if which == "84":
        return export_eighty_fourth_set(torch, torchvision, out)
    if which == "85":
        return export_eighty_fifth_set(torch, torchvision, out)
    if which == "86":
        return export_eighty_sixth_set(torch, torchvision, out)
    if which == "87":
        return export_eighty_seventh_set(torch, torchvision, out)
    if which == "88":
        return export_eighty_eighth_set(torch, torchvision, out)
    if which == "89":
        return export_eighty_ninth_set(torch, torchvision, out)
    if which == "90":
        return export_ninetieth_set(torch, torchvision, out)
    if which == "91":
        return export_ninety_first_set(torch, torchvision, out)
    if which == "92":
        return export_ninety_second_set(torch, torchvision, out)
    if which == "93":
        return export_ninety_third_set(torch, torchvision, out)
    if which == "94":
        return export_ninety_fourth_set(torch, torchvision, out)
    if which == "95":
        return export_ninety_fifth_set(torch, torchvision, out)
    if which == "96":
        return export_ninety_sixth_set(torch, torchvision, out)
    if which == "97":
        return export_ninety_seventh_set(torch, torchvision, out)
    if which == "98":
        return export_ninety_eighth_set(torch, torchvision, out)
    if which == "99":
        return export_ninety_ninth_set(torch, torchvision, out)
    if which == "100":
        return export_hundredth_set(torch, torchvision, out)
    if which == "101":
        return export_hundred_first_set(torch, torchvision, out)
    if which == "102":
        return export_hundred_second_set(torch, torchvision, out)
    if which == "103":
        return export_hundred_third_set(torch, torchvision, out)
    if which == "104":
        return export_hundred_fourth_set(torch, torchvision, out)
    if which == "105":
        return export_hundred_fifth_set(torch, torchvision, out)
    if which == "106":
        return export_hundred_sixth_set(torch, torchvision, out)
    if which == "107":
        return export_hundred_seventh_set(torch, torchvision, out)
    if which == "108":
        return export_hundred_eighth_set(torch, torchvision, out)
    if which == "109":
        return export_hundred_ninth_set(torch, torchvision, out)
    if which == "110":
        return export_hundred_tenth_set(torch, torchvision, out)
    if which == "111":
        return export_hundred_eleventh_set(torch, torchvision, out)
    if which == "112":
        return export_hundred_twelfth_set(torch, torchvision, out)
    if which == "113":
        return export_hundred_thirteenth_set(torch, torchvision, out)
    if which == "114":
        return export_hundred_fourteenth_set(torch, torchvision, out)
    if which == "115":
        return export_hundred_fifteenth_set(torch, torchvision, out)
    if which == "116":
        return export_hundred_sixteenth_set(torch, torchvision, out)
    if which == "117":
        return export_hundred_seventeenth_set(torch, torchvision, out)
    if which == "118":
        return export_hundred_eighteenth_set(torch, torchvision, out)
    if which == "119":
        return export_hundred_nineteenth_set(torch, torchvision, out)
    if which == "120":
        return export_hundred_twentieth_set(torch, torchvision, out)
    if which == "24":
        return export_twenty_fourth_set(torch, torchvision, out)
    tv = torchvision.models
    models = {
        "squeezenet1_1": (lambda: tv.squeezenet1_1(weights=None), (1, 3, 224, 224)),
        "densenet121": (lambda: tv.densenet121(weights=None), (1, 3, 224, 224)),
        "mnasnet1_0": (lambda: tv.mnasnet1_0(weights=None), (1, 3, 224, 224)),
        "resnext50_32x4d": (lambda: tv.resnext50_32x4d(weights=None), (1, 3, 224, 224)),
        "convnext_tiny": (lambda: tv.convnext_tiny(weights=None), (1, 3, 224, 224)),
        "mobilenet_v3_large": (lambda: tv.mobilenet_v3_large(weights=None), (1, 3, 224, 224)),
        "fcn_resnet50_small": (lambda: tv.segmentation.fcn_resnet50(weights=None, weights_backbone=None, aux_loss=False),
                               (1, 3, 256, 256)),
    }
    export_images(torch, models, out, seed=7)

    class GruLm(torch.nn.Module):  # a 2-layer GRU language model on int64 tokens
        def __init__(self):
            super().__init__()
            self.e = torch.nn.Embedding(1000, 128)
            self.g = torch.nn.GRU(128, 256, num_layers=2, batch_first=True)
            self.o = torch.nn.Linear(256, 1000)

        def forward(self, t):
            h, _ = self.g(self.e(t))
            return self.o(h)

    torch.manual_seed(7)
    torch.onnx.export(GruLm().eval(), torch.randint(0, 1000, (1, 32)), os.path.join(out, "gru_lm.onnx"),
                      opset_version=13, input_names=["t"], output_names=["y"])
    print("exported gru_lm", flush=True)
    return 0


def export_images(torch, models, out, seed):
    """Each NAME: (constructor, input shape) as OUT/NAME.onnx, opset 13, random weights from `seed`."""
    for name, (make, shape) in models.items():
        torch.manual_seed(seed)
        net = make().eval()
        torch.onnx.export(net, torch.rand(*shape), os.path.join(out, name + ".onnx"), opset_version=13,
                          input_names=["x"], output_names=["y"])
        print("exported", name, flush=True)


def export_one(torch, out, seed, name, make, shape, opset=17):
    """One model (a torchvision constructor, `make`) at input `shape` as OUT/NAME.onnx: the seed set before
    the model is built, its random input drawn after, as sets 69 and 70 wrote them."""
    torch.manual_seed(seed)
    model = make().eval()
    torch.onnx.export(model, torch.rand(*shape), os.path.join(out, name + ".onnx"), opset_version=opset,
                      input_names=["x"], output_names=["y"])
    print("exported", name, flush=True)


def export_nets(torch, out, seed, nets, opset=13):
    """Each (NAME, constructor, example input or its shape) as OUT/NAME.onnx, opset 13 (or `opset`), weights
    from `seed`. Eval mode with autograd on: plain ONNX pieces, no fused fast path (e.g. of an encoder layer)."""
    for name, net, x in nets:
        torch.manual_seed(seed)
        model = net().eval()
        if not torch.is_tensor(x) and not (isinstance(x, tuple) and torch.is_tensor(x[0])):
            x = torch.rand(*x)  # a shape; a tuple of tensors is several inputs
        torch.onnx.export(model, x, os.path.join(out, name + ".onnx"),
                          opset_version=opset, input_names=["x"], output_names=["y"])
        print("exported", name, flush=True)


def export_second_set(torch, torchvision, out):
    tv = torchvision.models
    models = {
        "efficientnet_b0": (lambda: tv.efficientnet_b0(weights=None), (1, 3, 224, 224)),
        "shufflenet_v2_x1_0": (lambda: tv.shufflenet_v2_x1_0(weights=None), (1, 3, 224, 224)),
        "regnet_y_400mf": (lambda: tv.regnet_y_400mf(weights=None), (1, 3, 224, 224)),
        "googlenet": (lambda: tv.googlenet(weights=None, aux_logits=False, init_weights=True), (1, 3, 224, 224)),
        "resnet18": (lambda: tv.resnet18(weights=None), (1, 3, 224, 224)),
        "wide_resnet50_2": (lambda: tv.wide_resnet50_2(weights=None), (1, 3, 160, 160)),
    }
    export_images(torch, models, out, seed=11)

    class Encoder(torch.nn.Module):  # a 4-layer GELU transformer encoder over 128 tokens
        def __init__(self):
            super().__init__()
            layer = torch.nn.TransformerEncoderLayer(256, 4, 1024, activation="gelu", batch_first=True)
            self.t = torch.nn.TransformerEncoder(layer, 4, enable_nested_tensor=False)

        def forward(self, x):
            return self.t(x)

    class Tagger(torch.nn.Module):  # a bidirectional LSTM tagger on int64 tokens
        def __init__(self):
            super().__init__()
            self.e = torch.nn.Embedding(5000, 100)
            self.l = torch.nn.LSTM(100, 128, bidirectional=True, batch_first=True)
            self.o = torch.nn.Linear(256, 20)

        def forward(self, t):
            h, _ = self.l(self.e(t))
            return self.o(h)

    torch.manual_seed(11)
    # Eval mode (no dropout) with autograd on: the encoder's fused fast path stays off, and the file holds
    # plain MatMul, Softmax, Erf and LayerNorm pieces.
    enc = Encoder().eval()
    torch.onnx.export(enc, torch.rand(1, 128, 256), os.path.join(out, "gelu_encoder.onnx"), opset_version=13,
                      input_names=["x"], output_names=["y"])
    print("exported gelu_encoder", flush=True)
    torch.manual_seed(11)
    torch.onnx.export(Tagger().eval(), torch.randint(0, 5000, (1, 48)), os.path.join(out, "lstm_tagger.onnx"),
                      opset_version=13, input_names=["t"], output_names=["y"])
    print("exported lstm_tagger", flush=True)
    return 0


def export_third_set(torch, torchvision, out):
    tv = torchvision.models
    models = {
        "resnet34": (lambda: tv.resnet34(weights=None), (1, 3, 224, 224)),
        "mnasnet0_5": (lambda: tv.mnasnet0_5(weights=None), (1, 3, 224, 224)),
        "shufflenet_v2_x0_5": (lambda: tv.shufflenet_v2_x0_5(weights=None), (1, 3, 224, 224)),
        "regnet_x_400mf": (lambda: tv.regnet_x_400mf(weights=None), (1, 3, 224, 224)),
        "efficientnet_b1": (lambda: tv.efficientnet_b1(weights=None), (1, 3, 240, 240)),
        "mobilenet_v3_small": (lambda: tv.mobilenet_v3_small(weights=None), (1, 3, 224, 224)),
        "squeezenet1_0": (lambda: tv.squeezenet1_0(weights=None), (1, 3, 224, 224)),
    }
    export_images(torch, models, out, seed=13)

    class SpeechGru(torch.nn.Module):  # a conv front end over 80 mel bins, then a bidirectional GRU
        def __init__(self):
            super().__init__()
            self.c = torch.nn.Sequential(torch.nn.Conv1d(80, 192, 5, padding=2), torch.nn.ReLU(),
                                         torch.nn.Conv1d(192, 192, 3, stride=2, padding=1), torch.nn.ReLU())
            self.g = torch.nn.GRU(192, 160, bidirectional=True, batch_first=True)
            self.o = torch.nn.Linear(320, 40)

        def forward(self, x):
            h, _ = self.g(self.c(x).transpose(1, 2))
            return self.o(h)

    class PatchTransformer(torch.nn.Module):  # a small ViT: 16x16 patches, 4 ReLU encoder layers
        def __init__(self):
            super().__init__()
            self.p = torch.nn.Conv2d(3, 192, 16, stride=16)
            self.pos = torch.nn.Parameter(torch.randn(1, 196, 192) * 0.02)
            layer = torch.nn.TransformerEncoderLayer(192, 3, 768, batch_first=True)
            self.t = torch.nn.TransformerEncoder(layer, 4, enable_nested_tensor=False)
            self.o = torch.nn.Linear(192, 100)

        def forward(self, x):
            z = self.p(x).flatten(2).transpose(1, 2) + self.pos
            return self.o(self.t(z).mean(1))

    class StackedLstm(torch.nn.Module):  # two LSTM layers over 64 frames of 40 features
        def __init__(self):
            super().__init__()
            self.l = torch.nn.LSTM(40, 256, num_layers=2, batch_first=True)
            self.o = torch.nn.Linear(256, 10)

        def forward(self, x):
            h, _ = self.l(x)
            return self.o(h[:, -1])

    export_nets(torch, out, 13, (("speech_gru", SpeechGru, (1, 80, 200)), ("patch_transformer", PatchTransformer, (1, 3, 224, 224)),
                                 ("stacked_lstm", StackedLstm, (1, 64, 40))))
    return 0


def export_fourth_set(torch, torchvision, out):
    tv = torchvision.models
    models = {
        "mobilenet_v2_075": (lambda: tv.mobilenet_v2(weights=None, width_mult=0.75), (1, 3, 192, 192)),
        "regnet_y_800mf": (lambda: tv.regnet_y_800mf(weights=None), (1, 3, 224, 224)),
        "efficientnet_b2": (lambda: tv.efficientnet_b2(weights=None), (1, 3, 260, 260)),
        "shufflenet_v2_x1_5": (lambda: tv.shufflenet_v2_x1_5(weights=None), (1, 3, 224, 224)),
        "mnasnet1_3": (lambda: tv.mnasnet1_3(weights=None), (1, 3, 224, 224)),
        "densenet169_160": (lambda: tv.densenet169(weights=None), (1, 3, 160, 160)),
    }
    export_images(torch, models, out, seed=17)

    class Tcn(torch.nn.Module):  # dilated causal-style Conv1d blocks with residuals over 400 steps
        def __init__(self):
            super().__init__()
            self.i = torch.nn.Conv1d(40, 96, 1)
            self.b = torch.nn.ModuleList(torch.nn.Conv1d(96, 96, 3, padding=d, dilation=d) for d in (1, 2, 4, 8, 16))
            self.o = torch.nn.Conv1d(96, 12, 1)

        def forward(self, x):
            h = self.i(x)
            for c in self.b:
                h = h + torch.relu(c(h))
            return self.o(h)

    class SmallUnet(torch.nn.Module):  # two down, two up, skip concatenations, nearest upsampling
        def __init__(self):
            super().__init__()
            def block(i, o):
                return torch.nn.Sequential(torch.nn.Conv2d(i, o, 3, padding=1), torch.nn.BatchNorm2d(o), torch.nn.ReLU())
            self.d1, self.d2, self.m = block(3, 16), block(16, 32), block(32, 64)
            self.u2, self.u1 = block(64 + 32, 32), block(32 + 16, 16)
            self.o = torch.nn.Conv2d(16, 2, 1)
            self.pool = torch.nn.MaxPool2d(2)
            self.up = torch.nn.Upsample(scale_factor=2, mode="nearest")

        def forward(self, x):
            a = self.d1(x)
            b = self.d2(self.pool(a))
            m = self.m(self.pool(b))
            b = self.u2(torch.cat([self.up(m), b], 1))
            return self.o(self.u1(torch.cat([self.up(b), a], 1)))

    class Mixer(torch.nn.Module):  # MLP-Mixer-style: token and channel MLPs with LayerNorm and GELU
        def __init__(self):
            super().__init__()
            self.p = torch.nn.Conv2d(3, 128, 16, stride=16)
            self.n1 = torch.nn.ModuleList(torch.nn.LayerNorm(128) for _ in range(3))
            self.n2 = torch.nn.ModuleList(torch.nn.LayerNorm(128) for _ in range(3))
            self.t = torch.nn.ModuleList(torch.nn.Sequential(torch.nn.Linear(196, 256), torch.nn.GELU(), torch.nn.Linear(256, 196))
                                         for _ in range(3))
            self.c = torch.nn.ModuleList(torch.nn.Sequential(torch.nn.Linear(128, 512), torch.nn.GELU(), torch.nn.Linear(512, 128))
                                         for _ in range(3))
            self.o = torch.nn.Linear(128, 10)

        def forward(self, x):
            z = self.p(x).flatten(2).transpose(1, 2)
            for n1, t, n2, c in zip(self.n1, self.t, self.n2, self.c):
                z = z + t(n1(z).transpose(1, 2)).transpose(1, 2)
                z = z + c(n2(z))
            return self.o(z.mean(1))

    class GruClassifier(torch.nn.Module):  # one GRU layer over 120 frames, the last state classified
        def __init__(self):
            super().__init__()
            self.g = torch.nn.GRU(64, 128, batch_first=True)
            self.o = torch.nn.Linear(128, 6)

        def forward(self, x):
            h, _ = self.g(x)
            return self.o(h[:, -1])

    export_nets(torch, out, 17, (("tcn", Tcn, (1, 40, 400)), ("small_unet", SmallUnet, (1, 3, 128, 128)),
                                 ("mixer", Mixer, (1, 3, 224, 224)), ("gru_classifier", GruClassifier, (1, 120, 64))))
    return 0


def export_fifth_set(torch, torchvision, out):
    tv = torchvision.models
    models = {
        "resnet101_160": (lambda: tv.resnet101(weights=None), (1, 3, 160, 160)),
        "mobilenet_v3_large_160": (lambda: tv.mobilenet_v3_large(weights=None), (1, 3, 160, 160)),
        "regnet_x_800mf": (lambda: tv.regnet_x_800mf(weights=None), (1, 3, 224, 224)),
        "efficientnet_b3_240": (lambda: tv.efficientnet_b3(weights=None), (1, 3, 240, 240)),
        "mnasnet0_75": (lambda: tv.mnasnet0_75(weights=None), (1, 3, 224, 224)),
        "shufflenet_v2_x2_0": (lambda: tv.shufflenet_v2_x2_0(weights=None), (1, 3, 224, 224)),
    }
    export_images(torch, models, out, seed=23)

    class DsCnnKws(torch.nn.Module):  # keyword spotting: depthwise-separable blocks over 49x10 MFCCs
        def __init__(self):
            super().__init__()
            def ds(c):
                return torch.nn.Sequential(torch.nn.Conv2d(c, c, 3, padding=1, groups=c), torch.nn.BatchNorm2d(c), torch.nn.ReLU(),
                                           torch.nn.Conv2d(c, c, 1), torch.nn.BatchNorm2d(c), torch.nn.ReLU())
            self.i = torch.nn.Sequential(torch.nn.Conv2d(1, 64, (10, 4), stride=(2, 2), padding=(5, 1)), torch.nn.BatchNorm2d(64),
                                         torch.nn.ReLU())
            self.b = torch.nn.Sequential(*[ds(64) for _ in range(4)])
            self.o = torch.nn.Linear(64, 12)

        def forward(self, x):
            return self.o(self.b(self.i(x)).mean((2, 3)))

    class BiLstmClassifier(torch.nn.Module):  # two bidirectional LSTM layers over 100 frames, mean-pooled
        def __init__(self):
            super().__init__()
            self.l = torch.nn.LSTM(48, 96, num_layers=2, bidirectional=True, batch_first=True)
            self.o = torch.nn.Linear(192, 8)

        def forward(self, x):
            h, _ = self.l(x)
            return self.o(h.mean(1))

    class TinyEncoder(torch.nn.Module):  # 3 GELU encoder layers, d=256, 128 tokens, learned positions
        def __init__(self):
            super().__init__()
            self.e = torch.nn.Embedding(5000, 256)
            self.pos = torch.nn.Parameter(torch.randn(1, 128, 256) * 0.02)
            layer = torch.nn.TransformerEncoderLayer(256, 4, 1024, activation="gelu", batch_first=True)
            self.t = torch.nn.TransformerEncoder(layer, 3, enable_nested_tensor=False)
            self.o = torch.nn.Linear(256, 2)

        def forward(self, t):
            return self.o(self.t(self.e(t) + self.pos)[:, 0])

    export_nets(torch, out, 23, (("ds_cnn_kws", DsCnnKws, torch.rand(1, 1, 49, 10)), ("bilstm_classifier", BiLstmClassifier, torch.rand(1, 100, 48)),
                                 ("tiny_encoder", TinyEncoder, torch.randint(0, 5000, (1, 128)))))
    return 0


def export_sixth_set(torch, torchvision, out):
    tv = torchvision.models
    models = {
        "resnet152_128": (lambda: tv.resnet152(weights=None), (1, 3, 128, 128)),
        "resnext101_32x8d_128": (lambda: tv.resnext101_32x8d(weights=None), (1, 3, 128, 128)),
        "regnet_y_1_6gf": (lambda: tv.regnet_y_1_6gf(weights=None), (1, 3, 224, 224)),
        "regnet_x_1_6gf": (lambda: tv.regnet_x_1_6gf(weights=None), (1, 3, 224, 224)),
        "mobilenet_v2_140": (lambda: tv.mobilenet_v2(weights=None, width_mult=1.4), (1, 3, 224, 224)),
        "efficientnet_b4_224": (lambda: tv.efficientnet_b4(weights=None), (1, 3, 224, 224)),
        "densenet201_128": (lambda: tv.densenet201(weights=None), (1, 3, 128, 128)),
        "inception_v3": (lambda: tv.inception_v3(weights=None, aux_logits=False, init_weights=True), (1, 3, 299, 299)),
    }
    export_images(torch, models, out, seed=31)

    class TinyVit(torch.nn.Module):  # 16x16 patches of a 224x224 image, 4 encoder layers, d=192, 3 heads
        def __init__(self):
            super().__init__()
            self.p = torch.nn.Conv2d(3, 192, 16, stride=16)
            self.cls = torch.nn.Parameter(torch.zeros(1, 1, 192))
            self.pos = torch.nn.Parameter(torch.randn(1, 197, 192) * 0.02)
            layer = torch.nn.TransformerEncoderLayer(192, 3, 768, activation="gelu", batch_first=True, norm_first=True)
            self.t = torch.nn.TransformerEncoder(layer, 4, enable_nested_tensor=False)
            self.o = torch.nn.Linear(192, 100)

        def forward(self, x):
            x = self.p(x).flatten(2).transpose(1, 2)
            x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], 1) + self.pos
            return self.o(self.t(x)[:, 0])

    class Conv1dSpeech(torch.nn.Module):  # wav2letter-like: 1-D convolutions over 200 frames of 40 features
        def __init__(self):
            super().__init__()
            layers = [torch.nn.Conv1d(40, 256, 11, stride=2, padding=5), torch.nn.ReLU()]
            for _ in range(5):
                layers += [torch.nn.Conv1d(256, 256, 7, padding=3), torch.nn.BatchNorm1d(256), torch.nn.ReLU()]
            layers += [torch.nn.Conv1d(256, 512, 1), torch.nn.ReLU(), torch.nn.Conv1d(512, 29, 1)]
            self.n = torch.nn.Sequential(*layers)

        def forward(self, x):
            return self.n(x).log_softmax(1)

    class BiGruTagger(torch.nn.Module):  # one bidirectional GRU layer over 50 tokens, a tag per token
        def __init__(self):
            super().__init__()
            self.e = torch.nn.Embedding(3000, 64)
            self.g = torch.nn.GRU(64, 128, bidirectional=True, batch_first=True)
            self.o = torch.nn.Linear(256, 17)

        def forward(self, t):
            h, _ = self.g(self.e(t))
            return self.o(h)

    export_nets(torch, out, 31, (("tiny_vit", TinyVit, torch.rand(1, 3, 224, 224)), ("conv1d_speech", Conv1dSpeech, torch.rand(1, 40, 200)),
                                 ("bigru_tagger", BiGruTagger, torch.randint(0, 3000, (1, 50)))))
    return 0


def export_seventh_set(torch, torchvision, out):
    tv = torchvision.models
    models = {
        "efficientnet_v2_s": (lambda: tv.efficientnet_v2_s(weights=None), (1, 3, 224, 224)),
        "regnet_y_3_2gf": (lambda: tv.regnet_y_3_2gf(weights=None), (1, 3, 224, 224)),
        "regnet_x_3_2gf_160": (lambda: tv.regnet_x_3_2gf(weights=None), (1, 3, 160, 160)),
        "convnext_small_128": (lambda: tv.convnext_small(weights=None), (1, 3, 128, 128)),
        "swin_t": (lambda: tv.swin_t(weights=None), (1, 3, 224, 224)),
        "densenet161_128": (lambda: tv.densenet161(weights=None), (1, 3, 128, 128)),
    }
    export_images(torch, models, out, seed=37)

    class GruDenoiser(torch.nn.Module):  # a spectral mask from two GRU layers over 100 frames of 161 bins
        def __init__(self):
            super().__init__()
            self.g = torch.nn.GRU(161, 256, num_layers=2, batch_first=True)
            self.o = torch.nn.Linear(256, 161)

        def forward(self, x):
            h, _ = self.g(x)
            return torch.sigmoid(self.o(h)) * x

    class CausalDecoder(torch.nn.Module):  # 4 pre-norm layers with a causal mask, d=256, 64 tokens
        def __init__(self):
            super().__init__()
            self.e = torch.nn.Embedding(8000, 256)
            self.pos = torch.nn.Parameter(torch.randn(1, 64, 256) * 0.02)
            layer = torch.nn.TransformerEncoderLayer(256, 8, 1024, activation="gelu", batch_first=True, norm_first=True)
            self.t = torch.nn.TransformerEncoder(layer, 4, enable_nested_tensor=False)
            self.o = torch.nn.Linear(256, 8000)
            self.register_buffer("mask", torch.triu(torch.full((64, 64), float("-inf")), 1))

        def forward(self, t):
            return self.o(self.t(self.e(t) + self.pos, mask=self.mask))

    class Crnn(torch.nn.Module):  # 2-D convolutions over a 64x128 spectrogram, then a BiLSTM over time
        def __init__(self):
            super().__init__()
            c = [torch.nn.Conv2d(1, 32, 3, padding=1), torch.nn.BatchNorm2d(32), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
                 torch.nn.Conv2d(32, 64, 3, padding=1), torch.nn.BatchNorm2d(64), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
                 torch.nn.Conv2d(64, 128, 3, padding=1), torch.nn.BatchNorm2d(128), torch.nn.ReLU(), torch.nn.MaxPool2d((4, 1))]
            self.c = torch.nn.Sequential(*c)
            self.l = torch.nn.LSTM(128 * 4, 128, bidirectional=True, batch_first=True)
            self.o = torch.nn.Linear(256, 30)

        def forward(self, x):
            y = self.c(x)  # [1, 128, 4, 32]
            y = y.flatten(1, 2).transpose(1, 2)  # [1, 32, 512]
            h, _ = self.l(y)
            return self.o(h)

    export_nets(torch, out, 37, (("gru_denoiser", GruDenoiser, torch.rand(1, 100, 161)),
                                 ("causal_decoder", CausalDecoder, torch.randint(0, 8000, (1, 64))),
                                 ("crnn", Crnn, torch.rand(1, 1, 64, 128))))
    return 0


def export_eighth_set(torch, torchvision, out):
    tv = torchvision.models
    models = {
        "regnet_y_8gf_128": (lambda: tv.regnet_y_8gf(weights=None), (1, 3, 128, 128)),
        "regnet_x_8gf_128": (lambda: tv.regnet_x_8gf(weights=None), (1, 3, 128, 128)),
        "efficientnet_b5_224": (lambda: tv.efficientnet_b5(weights=None), (1, 3, 224, 224)),
        "alexnet": (lambda: tv.alexnet(weights=None), (1, 3, 224, 224)),
    }
    export_images(torch, models, out, seed=41)

    class LstmLm(torch.nn.Module):  # three LSTM layers over 35 tokens, the output tied to the embedding
        def __init__(self):
            super().__init__()
            self.e = torch.nn.Embedding(10000, 400)
            self.l = torch.nn.LSTM(400, 400, num_layers=3, batch_first=True)
            self.o = torch.nn.Linear(400, 10000)
            self.o.weight = self.e.weight

        def forward(self, t):
            h, _ = self.l(self.e(t))
            return self.o(h)

    class ConvAutoencoder(torch.nn.Module):  # strided convolutions down, transposed convolutions up, 96x96
        def __init__(self):
            super().__init__()
            self.d = torch.nn.Sequential(torch.nn.Conv2d(3, 32, 4, 2, 1), torch.nn.ReLU(), torch.nn.Conv2d(32, 64, 4, 2, 1),
                                         torch.nn.ReLU(), torch.nn.Conv2d(64, 128, 4, 2, 1), torch.nn.ReLU())
            self.u = torch.nn.Sequential(torch.nn.ConvTranspose2d(128, 64, 4, 2, 1), torch.nn.ReLU(),
                                         torch.nn.ConvTranspose2d(64, 32, 4, 2, 1), torch.nn.ReLU(),
                                         torch.nn.ConvTranspose2d(32, 3, 4, 2, 1), torch.nn.Sigmoid())

        def forward(self, x):
            return self.u(self.d(x))

    class WaveNetLite(torch.nn.Module):  # gated dilated 1-D convolutions (dilations 1..32) with skip sums
        def __init__(self):
            super().__init__()
            self.i = torch.nn.Conv1d(1, 64, 1)
            self.f = torch.nn.ModuleList([torch.nn.Conv1d(64, 64, 2, dilation=2 ** k) for k in range(6)])
            self.g = torch.nn.ModuleList([torch.nn.Conv1d(64, 64, 2, dilation=2 ** k) for k in range(6)])
            self.r = torch.nn.ModuleList([torch.nn.Conv1d(64, 64, 1) for _ in range(6)])
            self.o = torch.nn.Conv1d(64, 256, 1)

        def forward(self, x):
            h = self.i(x)
            skip = 0
            for f, g, r in zip(self.f, self.g, self.r):
                z = torch.tanh(f(h)) * torch.sigmoid(g(h))
                skip = skip + z[..., -512:]
                h = r(z) + h[..., -z.shape[-1]:]
            return self.o(torch.relu(skip))

    export_nets(torch, out, 41, (("lstm_lm", LstmLm, torch.randint(0, 10000, (1, 35))),
                                 ("conv_autoencoder", ConvAutoencoder, torch.rand(1, 3, 96, 96)),
                                 ("wavenet_lite", WaveNetLite, torch.rand(1, 1, 1024))))
    return 0


def export_ninth_set(torch, torchvision, out):
    tv = torchvision.models
    models = {
        "efficientnet_v2_m_160": (lambda: tv.efficientnet_v2_m(weights=None), (1, 3, 160, 160)),
        "regnet_y_16gf_128": (lambda: tv.regnet_y_16gf(weights=None), (1, 3, 128, 128)),
        "resnext101_64x4d_128": (lambda: tv.resnext101_64x4d(weights=None), (1, 3, 128, 128)),
        "vit_b_16": (lambda: tv.vit_b_16(weights=None), (1, 3, 224, 224)),
        "r3d_18_small": (lambda: tv.video.r3d_18(weights=None), (1, 3, 8, 64, 64)),
    }
    export_images(torch, models, out, seed=43)

    class UNetSmall(torch.nn.Module):  # two levels down and up at 128x128, 24/48/96 channels, ConvTranspose up
        def __init__(self):
            super().__init__()
            nn = torch.nn

            def block(i, o):
                return nn.Sequential(nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU(),
                                     nn.Conv2d(o, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU())
            self.e1, self.e2, self.mid = block(3, 24), block(24, 48), block(48, 96)
            self.u2, self.d2 = nn.ConvTranspose2d(96, 48, 2, 2), block(96, 48)
            self.u1, self.d1 = nn.ConvTranspose2d(48, 24, 2, 2), block(48, 24)
            self.o = nn.Conv2d(24, 5, 1)

        def forward(self, x):
            a = self.e1(x)
            b = self.e2(torch.nn.functional.max_pool2d(a, 2))
            m = self.mid(torch.nn.functional.max_pool2d(b, 2))
            y = self.d2(torch.cat([self.u2(m), b], 1))
            y = self.d1(torch.cat([self.u1(y), a], 1))
            return self.o(y)

    class BiLstmAttention(torch.nn.Module):  # a BiLSTM over 50 steps, additive attention pooling, 4 classes
        def __init__(self):
            super().__init__()
            self.l = torch.nn.LSTM(80, 192, batch_first=True, bidirectional=True)
            self.a = torch.nn.Linear(384, 1)
            self.o = torch.nn.Linear(384, 4)

        def forward(self, x):
            h, _ = self.l(x)
            w = torch.softmax(self.a(torch.tanh(h)), dim=1)
            return self.o((w * h).sum(1))

    export_nets(torch, out, 43, (("unet_small", UNetSmall, (1, 3, 128, 128)),
                                 ("bilstm_attention", BiLstmAttention, (1, 50, 80))))
    return 0


def export_tenth_set(torch, torchvision, out):
    tv = torchvision.models
    models = {
        "vgg11_bn": (lambda: tv.vgg11_bn(weights=None), (1, 3, 224, 224)),
        "vit_b_32": (lambda: tv.vit_b_32(weights=None), (1, 3, 224, 224)),
        "regnet_x_16gf_128": (lambda: tv.regnet_x_16gf(weights=None), (1, 3, 128, 128)),
        "lraspp_mobilenet_v3_256": (lambda: tv.segmentation.lraspp_mobilenet_v3_large(weights=None, weights_backbone=None),
                                    (1, 3, 256, 256)),
        "r2plus1d_18_small": (lambda: tv.video.r2plus1d_18(weights=None), (1, 3, 8, 64, 64)),
    }
    export_images(torch, models, out, seed=47)
    nn = torch.nn

    class MatchboxAsr(nn.Module):  # 1-D depthwise-separable conv blocks with residuals over 64 mel bins, 29 labels
        def __init__(self):
            super().__init__()

            def sep(i, o, k):
                return nn.Sequential(nn.Conv1d(i, i, k, padding=k // 2, groups=i), nn.Conv1d(i, o, 1), nn.BatchNorm1d(o))
            self.pre = nn.Sequential(sep(64, 128, 11), nn.ReLU())
            self.blocks = nn.ModuleList([sep(128, 128, k) for k in (13, 15, 17)])
            self.res = nn.ModuleList([nn.Sequential(nn.Conv1d(128, 128, 1), nn.BatchNorm1d(128)) for _ in range(3)])
            self.post = nn.Sequential(sep(128, 128, 29), nn.ReLU(), nn.Conv1d(128, 128, 1), nn.ReLU(), nn.Conv1d(128, 29, 1))

        def forward(self, x):
            h = self.pre(x)
            for b, r in zip(self.blocks, self.res):
                h = torch.relu(b(h) + r(h))
            return self.post(h).log_softmax(1)

    class ConformerBlock(nn.Module):  # half-step feed-forwards, self-attention, a GLU + depthwise conv module, 2 blocks
        def __init__(self, d=144, heads=4):
            super().__init__()
            self.layers = nn.ModuleList()
            for _ in range(2):
                self.layers.append(nn.ModuleDict({
                    "ff1": nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.SiLU(), nn.Linear(4 * d, d)),
                    "ln_a": nn.LayerNorm(d), "att": nn.MultiheadAttention(d, heads, batch_first=True),
                    "ln_c": nn.LayerNorm(d), "pw1": nn.Conv1d(d, 2 * d, 1), "dw": nn.Conv1d(d, d, 31, padding=15, groups=d),
                    "bn": nn.BatchNorm1d(d), "pw2": nn.Conv1d(d, d, 1),
                    "ff2": nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.SiLU(), nn.Linear(4 * d, d)),
                    "ln_o": nn.LayerNorm(d)}))

        def forward(self, x):
            for L in self.layers:
                x = x + 0.5 * L["ff1"](x)
                a = L["ln_a"](x)
                x = x + L["att"](a, a, a, need_weights=False)[0]
                c = torch.nn.functional.glu(L["pw1"](L["ln_c"](x).transpose(1, 2)), dim=1)
                x = x + L["pw2"](torch.nn.functional.silu(L["bn"](L["dw"](c)))).transpose(1, 2)
                x = L["ln_o"](x + 0.5 * L["ff2"](x))
            return x

    export_nets(torch, out, 47, (("matchbox_asr", MatchboxAsr, (1, 64, 200)),
                                 ("conformer_small", ConformerBlock, (1, 100, 144))))
    return 0


def export_eleventh_set(torch, torchvision, out):
    tv = torchvision.models
    models = {
        "vgg13_bn": (lambda: tv.vgg13_bn(weights=None), (1, 3, 224, 224)),
        "maxvit_t": (lambda: tv.maxvit_t(weights=None), (1, 3, 224, 224)),
        "convnext_base_128": (lambda: tv.convnext_base(weights=None), (1, 3, 128, 128)),
        "deeplabv3_mobilenet_v3_256": (lambda: tv.segmentation.deeplabv3_mobilenet_v3_large(weights=None,
                                                                                             weights_backbone=None,
                                                                                             aux_loss=False),
                                       (1, 3, 256, 256)),
        "mc3_18_small": (lambda: tv.video.mc3_18(weights=None), (1, 3, 8, 64, 64)),
    }
    export_images(torch, models, out, seed=53)
    nn = torch.nn

    class GptSmall(nn.Module):  # 6 pre-norm causal decoder layers, d 512, 8 heads, 64 tokens, an 8000-word head
        def __init__(self, d=512, heads=8, layers=6, vocab=8000, seq=64):
            super().__init__()
            self.emb = nn.Embedding(vocab, d)
            self.pos = nn.Parameter(torch.randn(1, seq, d) * 0.02)
            self.layers = nn.ModuleList([nn.ModuleDict({
                "ln1": nn.LayerNorm(d), "qkv": nn.Linear(d, 3 * d), "proj": nn.Linear(d, d),
                "ln2": nn.LayerNorm(d), "fc": nn.Linear(d, 4 * d), "out": nn.Linear(4 * d, d)}) for _ in range(layers)])
            self.ln = nn.LayerNorm(d)
            self.head = nn.Linear(d, vocab, bias=False)
            self.heads = heads
            self.register_buffer("mask", torch.full((seq, seq), float("-inf")).triu(1))

        def forward(self, ids):
            x = self.emb(ids) + self.pos
            b, t, d = x.shape
            h = self.heads
            for L in self.layers:
                q, k, v = L["qkv"](L["ln1"](x)).split(d, dim=2)
                q, k, v = (z.reshape(b, t, h, d // h).transpose(1, 2) for z in (q, k, v))
                a = (q @ k.transpose(2, 3) / (d // h) ** 0.5 + self.mask).softmax(-1) @ v
                x = x + L["proj"](a.transpose(1, 2).reshape(b, t, d))
                x = x + L["out"](nn.functional.gelu(L["fc"](L["ln2"](x))))
            return self.head(self.ln(x))

    class Recommender(nn.Module):  # embeddings of 8 sparse features, a dense MLP, their dot products, a top MLP
        def __init__(self):
            super().__init__()
            self.embs = nn.ModuleList([nn.Embedding(1000, 64) for _ in range(8)])
            self.bottom = nn.Sequential(nn.Linear(13, 512), nn.ReLU(), nn.Linear(512, 256), nn.ReLU(), nn.Linear(256, 64), nn.ReLU())
            self.top = nn.Sequential(nn.Linear(64 + 36, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(),
                                     nn.Linear(1024, 512), nn.ReLU(), nn.Linear(512, 1))

        def forward(self, x):
            dense, ids = x[:, :13], (x[:, 13:] * 999).long()
            feats = [self.bottom(dense)] + [e(ids[:, i]) for i, e in enumerate(self.embs)]
            z = torch.stack(feats, 1)
            dots = z @ z.transpose(1, 2)
            iu = torch.triu_indices(9, 9, 1)
            return torch.sigmoid(self.top(torch.cat([feats[0], dots[:, iu[0], iu[1]]], 1)))

    class Seq2Seq(nn.Module):  # a 2-layer LSTM encoder over 40 steps, 8 decoder steps of an LSTM cell with attention
        def __init__(self, feat=80, hid=256, vocab=500, steps=8):
            super().__init__()
            self.enc = nn.LSTM(feat, hid, num_layers=2, batch_first=True)
            self.cell = nn.LSTMCell(hid * 2, hid)
            self.emb = nn.Embedding(vocab, hid)
            self.out = nn.Linear(hid * 2, vocab)
            self.steps = steps

        def forward(self, x):
            mem, (h, c) = self.enc(x)
            h, c = h[-1], c[-1]
            tok = torch.zeros(x.shape[0], dtype=torch.long)
            outs = []
            for _ in range(self.steps):
                att = torch.softmax((mem @ h.unsqueeze(2)).squeeze(2), 1)
                ctx = (att.unsqueeze(1) @ mem).squeeze(1)
                h, c = self.cell(torch.cat([self.emb(tok), ctx], 1), (h, c))
                logits = self.out(torch.cat([h, ctx], 1))
                outs.append(logits)
                tok = logits.argmax(1)
            return torch.stack(outs, 1)

    export_nets(torch, out, 53, (("gpt_small", GptSmall, torch.randint(0, 8000, (1, 64))),
                                 ("recommender_b64", Recommender, (64, 21)),
                                 ("lstm_seq2seq", Seq2Seq, (1, 40, 80))))
    return 0


def export_twelfth_set(torch, torchvision, out):
    tv = torchvision.models
    models = {
        "swin_s": (lambda: tv.swin_s(weights=None), (1, 3, 224, 224)),
        "wide_resnet101_2_128": (lambda: tv.wide_resnet101_2(weights=None), (1, 3, 128, 128)),
        "efficientnet_b6_192": (lambda: tv.efficientnet_b6(weights=None), (1, 3, 192, 192)),
        "s3d_16x224": (lambda: tv.video.s3d(weights=None), (1, 3, 16, 224, 224)),
    }
    export_images(torch, models, out, seed=61)
    nn = torch.nn

    class PointNet(nn.Module):  # shared per-point MLP as 1-D convolutions, a max over 1024 points, a classifier
        def __init__(self):
            super().__init__()
            self.feat = nn.Sequential(nn.Conv1d(3, 64, 1), nn.BatchNorm1d(64), nn.ReLU(), nn.Conv1d(64, 128, 1),
                                      nn.BatchNorm1d(128), nn.ReLU(), nn.Conv1d(128, 1024, 1), nn.BatchNorm1d(1024))
            self.head = nn.Sequential(nn.Linear(1024, 512), nn.ReLU(), nn.Linear(512, 256), nn.ReLU(), nn.Linear(256, 40))

        def forward(self, x):
            return self.head(self.feat(x).amax(2))

    class EncDec(nn.Module):  # nn.Transformer, 3+3 layers, d 256, 4 heads: 48 source and 24 target positions
        def __init__(self):
            super().__init__()
            self.t = nn.Transformer(256, 4, 3, 3, 1024, dropout=0.0, batch_first=True)
            self.register_buffer("mask", nn.Transformer.generate_square_subsequent_mask(24))

        def forward(self, x):
            return self.t(x[:, :48], x[:, 48:], tgt_mask=self.mask)

    class Vocoder(nn.Module):  # mel frames to samples: transposed 1-D convolutions, dilated residual blocks
        def __init__(self, ch=128):
            super().__init__()
            self.pre = nn.Conv1d(80, ch, 7, padding=3)
            ups, res = [], []
            for r in (8, 8, 4):
                ups.append(nn.ConvTranspose1d(ch, ch // 2, 2 * r, stride=r, padding=r // 2))
                ch //= 2
                res.append(nn.ModuleList([nn.Conv1d(ch, ch, 3, dilation=d, padding=d) for d in (1, 3, 9)]))
            self.ups, self.res = nn.ModuleList(ups), nn.ModuleList(res)
            self.post = nn.Conv1d(ch, 1, 7, padding=3)

        def forward(self, x):
            x = self.pre(x)
            for up, blocks in zip(self.ups, self.res):
                x = up(nn.functional.leaky_relu(x, 0.1))
                for conv in blocks:
                    x = x + conv(nn.functional.leaky_relu(x, 0.1))
            return torch.tanh(self.post(x))

    class Gcn(nn.Module):  # three graph convolutions over a dense normalised adjacency of 512 nodes
        def __init__(self, n=512, f=64, h=128, c=16):
            super().__init__()
            adj = (torch.rand(n, n) < 0.02).float()
            adj = ((adj + adj.t() + torch.eye(n)) > 0).float()
            d = adj.sum(1).rsqrt()
            self.register_buffer("adj", d[:, None] * adj * d[None, :])
            self.w = nn.ModuleList([nn.Linear(f, h), nn.Linear(h, h), nn.Linear(h, c)])

        def forward(self, x):
            for i, w in enumerate(self.w):
                x = self.adj @ w(x)
                if i < 2:
                    x = torch.relu(x)
            return x.log_softmax(-1)

    export_nets(torch, out, 61, (("pointnet_b8", PointNet, (8, 3, 1024)),
                                 ("transformer_enc_dec", EncDec, (1, 72, 256)),
                                 ("vocoder_lite", Vocoder, (1, 80, 32)),
                                 ("gcn_512", Gcn, (512, 64))))
    return 0


def export_thirteenth_set(torch, torchvision, out):
    tv = torchvision.models
    models = {
        "efficientnet_b7_160": (lambda: tv.efficientnet_b7(weights=None), (1, 3, 160, 160)),
        "deeplabv3_resnet50_192": (lambda: tv.segmentation.deeplabv3_resnet50(weights=None, weights_backbone=None,
                                                                                aux_loss=False), (1, 3, 192, 192)),
        "vgg16_bn": (lambda: tv.vgg16_bn(weights=None), (1, 3, 224, 224)),
    }
    export_images(torch, models, out, seed=67)
    nn = torch.nn

    class ConvGru(nn.Module):  # a strided 1-D conv front end over 200 frames, a 2-layer bidirectional GRU
        def __init__(self):
            super().__init__()
            self.front = nn.Sequential(nn.Conv1d(40, 128, 5, stride=2, padding=2), nn.ReLU(),
                                       nn.Conv1d(128, 128, 5, stride=2, padding=2), nn.ReLU())
            self.gru = nn.GRU(128, 160, num_layers=2, bidirectional=True, batch_first=True)
            self.out = nn.Linear(320, 30)

        def forward(self, x):
            h, _ = self.gru(self.front(x).transpose(1, 2))
            return self.out(h)

    class TinyBert(nn.Module):  # token and position embeddings, 4 encoder layers, d 384, 6 heads, 96 tokens
        def __init__(self):
            super().__init__()
            self.tok = nn.Embedding(5000, 384)
            self.pos = nn.Parameter(torch.randn(1, 96, 384) * 0.02)
            layer = nn.TransformerEncoderLayer(384, 6, 1536, dropout=0.0, activation="gelu", batch_first=True)
            self.enc = nn.TransformerEncoder(layer, 4, enable_nested_tensor=False)
            self.head = nn.Linear(384, 2)

        def forward(self, ids):
            return self.head(self.enc(self.tok(ids) + self.pos)[:, 0])

    class Unet3d(nn.Module):  # two levels of 3-D convolutions, a 3-D max pool, a transposed 3-D conv
        def __init__(self, c=16):
            super().__init__()
            blk = lambda i, o: nn.Sequential(nn.Conv3d(i, o, 3, padding=1), nn.BatchNorm3d(o), nn.ReLU())
            self.e1, self.e2 = blk(1, c), blk(c, 2 * c)
            self.pool = nn.MaxPool3d(2)
            self.up = nn.ConvTranspose3d(2 * c, c, 2, stride=2)
            self.d1 = blk(2 * c, c)
            self.out = nn.Conv3d(c, 2, 1)

        def forward(self, x):
            a = self.e1(x)
            b = self.e2(self.pool(a))
            return self.out(self.d1(torch.cat([a, self.up(b)], 1)))

    class MlpAutoencoder(nn.Module):  # 784-512-128-32 and back, batch 256
        def __init__(self):
            super().__init__()
            dims = [784, 512, 128, 32, 128, 512, 784]
            layers = []
            for i in range(len(dims) - 1):
                layers += [nn.Linear(dims[i], dims[i + 1]), nn.ReLU() if i < len(dims) - 2 else nn.Sigmoid()]
            self.net = nn.Sequential(*layers)

        def forward(self, x):
            return self.net(x)

    export_nets(torch, out, 67, (("conv_gru_speech", ConvGru, (1, 40, 200)),
                                 ("tiny_bert_96", TinyBert, torch.randint(0, 5000, (1, 96))),
                                 ("unet3d_small", Unet3d, (1, 1, 16, 48, 48)),
                                 ("mlp_autoencoder_b256", MlpAutoencoder, (256, 784))))
    return 0


def export_fourteenth_set(torch, torchvision, out):
    tv = torchvision.models
    models = {
        "fcn_resnet101_160": (lambda: tv.segmentation.fcn_resnet101(weights=None, weights_backbone=None,
                                                                      aux_loss=False), (1, 3, 160, 160)),
        "mobilenet_v3_small_320": (lambda: tv.mobilenet_v3_small(weights=None), (1, 3, 320, 320)),
        "swin_b_128": (lambda: tv.swin_b(weights=None), (1, 3, 128, 128)),
    }
    export_images(torch, models, out, seed=71)
    nn = torch.nn

    class ResNet1d(nn.Module):  # a 12-lead ECG classifier: 1-D residual blocks over 5000 samples
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv1d(12, 32, 15, stride=2, padding=7), nn.BatchNorm1d(32), nn.ReLU(),
                                      nn.MaxPool1d(3, 2, 1))
            blocks, c = [], 32
            for o in (32, 64, 64, 128):
                stride = 1 if o == c else 2
                blocks.append(nn.ModuleDict({
                    "a": nn.Sequential(nn.Conv1d(c, o, 7, stride=stride, padding=3), nn.BatchNorm1d(o), nn.ReLU(),
                                       nn.Conv1d(o, o, 7, padding=3), nn.BatchNorm1d(o)),
                    "s": nn.Identity() if o == c else nn.Conv1d(c, o, 1, stride=stride)}))
                c = o
            self.blocks = nn.ModuleList(blocks)
            self.head = nn.Linear(128, 5)

        def forward(self, x):
            h = self.stem(x)
            for b in self.blocks:
                h = torch.relu(b["a"](h) + b["s"](h))
            return self.head(h.mean(-1))

    class MoeLayer(nn.Module):  # 64 tokens, a top-2 gate over 8 experts (dense dispatch by a 0/1 mask)
        def __init__(self, d=256, e=8):
            super().__init__()
            self.gate = nn.Linear(d, e)
            self.w1 = nn.Parameter(torch.randn(e, d, 512) * 0.05)
            self.w2 = nn.Parameter(torch.randn(e, 512, d) * 0.05)
            self.norm = nn.LayerNorm(d)

        def forward(self, x):
            p = torch.softmax(self.gate(x), -1)
            top, idx = p.topk(2, -1)
            mask = torch.zeros_like(p).scatter(-1, idx, top)
            h = torch.relu(torch.einsum("td,edh->eth", x, self.w1))
            y = torch.einsum("eth,ehd->etd", h, self.w2)
            return self.norm(x + torch.einsum("te,etd->td", mask, y))

    class Fpn(nn.Module):  # a 4-stage conv backbone, an FPN top-down path with nearest upsampling
        def __init__(self, c=64):
            super().__init__()
            chans, self.stages, i = (32, 64, 128, 256), nn.ModuleList(), 3
            for o in chans:
                self.stages.append(nn.Sequential(nn.Conv2d(i, o, 3, stride=2, padding=1), nn.BatchNorm2d(o), nn.ReLU(),
                                                 nn.Conv2d(o, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU()))
                i = o
            self.lat = nn.ModuleList(nn.Conv2d(o, c, 1) for o in chans)
            self.smooth = nn.ModuleList(nn.Conv2d(c, c, 3, padding=1) for _ in chans)

        def forward(self, x):
            feats = []
            for s in self.stages:
                x = s(x)
                feats.append(x)
            top = self.lat[3](feats[3])
            outs = [self.smooth[3](top)]
            for k in (2, 1, 0):
                top = self.lat[k](feats[k]) + nn.functional.interpolate(top, scale_factor=2.0, mode="nearest")
                outs.append(self.smooth[k](top))
            return sum(o.mean((2, 3)) for o in outs)

    class PerceiverLite(nn.Module):  # 64 latents cross-attend to 1024 inputs, then 2 latent self-attention blocks
        def __init__(self, d=256):
            super().__init__()
            self.latents = nn.Parameter(torch.randn(1, 64, d) * 0.02)
            self.inp = nn.Linear(48, d)
            self.cross = nn.MultiheadAttention(d, 4, batch_first=True)
            layer = nn.TransformerEncoderLayer(d, 4, 512, dropout=0.0, batch_first=True, norm_first=True)
            self.self_attn = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
            self.out = nn.Linear(d, 10)

        def forward(self, x):
            kv = self.inp(x)
            lat, _ = self.cross(self.latents, kv, kv, need_weights=False)
            return self.out(self.self_attn(lat + self.latents).mean(1))

    export_nets(torch, out, 71, (("resnet1d_ecg", ResNet1d, (1, 12, 5000)),
                                 ("moe_top2_t64", MoeLayer, (64, 256)),
                                 ("fpn_small_256", Fpn, (1, 3, 256, 256)),
                                 ("perceiver_lite", PerceiverLite, (1, 1024, 48))))
    return 0


def export_fifteenth_set(torch, torchvision, out):
    tv = torchvision.models
    models = {
        "vgg19_bn": (lambda: tv.vgg19_bn(weights=None), (1, 3, 224, 224)),
        "regnet_y_1_6gf_96": (lambda: tv.regnet_y_1_6gf(weights=None), (2, 3, 96, 96)),
    }
    export_images(torch, models, out, seed=73)
    nn = torch.nn

    class SeResNet(nn.Module):  # residual blocks with squeeze-and-excitation, 112x112
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU())
            blocks, c = [], 32
            for o in (32, 64, 128, 128):
                blocks.append(nn.ModuleDict({
                    "a": nn.Sequential(nn.Conv2d(c, o, 3, stride=1 if o == c else 2, padding=1), nn.BatchNorm2d(o),
                                       nn.ReLU(), nn.Conv2d(o, o, 3, padding=1), nn.BatchNorm2d(o)),
                    "se": nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(o, o // 8), nn.ReLU(),
                                        nn.Linear(o // 8, o), nn.Sigmoid()),
                    "s": nn.Identity() if o == c else nn.Conv2d(c, o, 1, stride=2)}))
                c = o
            self.blocks = nn.ModuleList(blocks)
            self.head = nn.Linear(128, 100)

        def forward(self, x):
            h = self.stem(x)
            for b in self.blocks:
                a = b["a"](h)
                h = torch.relu(a * b["se"](a)[:, :, None, None] + b["s"](h))
            return self.head(h.mean((2, 3)))

    class DeepCross(nn.Module):  # a Deep & Cross ranking net: 8 embedded fields, 3 cross layers, an MLP
        def __init__(self):
            super().__init__()
            self.emb = nn.ModuleList(nn.Embedding(1000, 16) for _ in range(8))
            d = 8 * 16 + 13
            self.cross_w = nn.ParameterList(nn.Parameter(torch.randn(d, d) * 0.02) for _ in range(3))
            self.cross_b = nn.ParameterList(nn.Parameter(torch.zeros(d)) for _ in range(3))
            self.mlp = nn.Sequential(nn.Linear(d, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU())
            self.out = nn.Linear(d + 128, 1)

        def forward(self, x):
            dense, ids = x[:, :13], (x[:, 13:] * 999).long()
            x0 = torch.cat([dense] + [e(ids[:, i]) for i, e in enumerate(self.emb)], 1)
            xc = x0
            for w, b in zip(self.cross_w, self.cross_b):
                xc = x0 * (xc @ w) + b + xc
            return torch.sigmoid(self.out(torch.cat([xc, self.mlp(x0)], 1)))

    class MobileVitLite(nn.Module):  # convolutions, then a transformer over 2x2 patches of a 16x16 map
        def __init__(self, c=64, d=96):
            super().__init__()
            self.conv = nn.Sequential(nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.SiLU(),
                                      nn.Conv2d(32, c, 3, stride=2, padding=1), nn.SiLU(),
                                      nn.Conv2d(c, c, 3, stride=2, padding=1), nn.SiLU())
            self.proj_in = nn.Conv2d(c, d, 1)
            layer = nn.TransformerEncoderLayer(d, 4, 2 * d, dropout=0.0, activation="gelu", batch_first=True)
            self.tr = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
            self.proj_out = nn.Conv2d(d, c, 1)
            self.head = nn.Linear(c, 10)

        def forward(self, x):
            h = self.proj_in(self.conv(x))  # [1, d, 16, 16]
            b, d, hh, ww = h.shape
            p = h.reshape(b, d, hh // 2, 2, ww // 2, 2).permute(0, 3, 5, 2, 4, 1).reshape(b * 4, hh * ww // 4, d)
            p = self.tr(p).reshape(b, 2, 2, hh // 2, ww // 2, d).permute(0, 5, 3, 1, 4, 2).reshape(b, d, hh, ww)
            return self.head(self.proj_out(p).mean((2, 3)))

    class LeNet(nn.Module):  # LeNet-5 on a batch of 64 digits
        def __init__(self):
            super().__init__()
            self.f = nn.Sequential(nn.Conv2d(1, 6, 5, padding=2), nn.Tanh(), nn.AvgPool2d(2), nn.Conv2d(6, 16, 5),
                                   nn.Tanh(), nn.AvgPool2d(2), nn.Flatten(), nn.Linear(400, 120), nn.Tanh(),
                                   nn.Linear(120, 84), nn.Tanh(), nn.Linear(84, 10))

        def forward(self, x):
            return self.f(x)

    export_nets(torch, out, 73, (("se_resnet_112", SeResNet, (1, 3, 112, 112)),
                                 ("deep_cross_b128", DeepCross, (128, 21)),
                                 ("mobilevit_lite_128", MobileVitLite, (1, 3, 128, 128)),
                                 ("lenet5_b64", LeNet, (64, 1, 28, 28))))
    return 0


def export_sixteenth_set(torch, torchvision, out):
    tv = torchvision.models
    models = {
        "resnet50_b8_112": (lambda: tv.resnet50(weights=None), (8, 3, 112, 112)),
        "efficientnet_b0_b4_128": (lambda: tv.efficientnet_b0(weights=None), (4, 3, 128, 128)),
    }
    export_images(torch, models, out, seed=89)
    nn = torch.nn

    class ConvMixer(nn.Module):  # patches of 7, then depthwise 9x9 and pointwise mixing, 8 blocks
        def __init__(self, d=256, depth=8, k=9, p=7):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, d, p, stride=p), nn.GELU(), nn.BatchNorm2d(d))
            self.blocks = nn.ModuleList(nn.ModuleDict({
                "dw": nn.Sequential(nn.Conv2d(d, d, k, groups=d, padding=k // 2), nn.GELU(), nn.BatchNorm2d(d)),
                "pw": nn.Sequential(nn.Conv2d(d, d, 1), nn.GELU(), nn.BatchNorm2d(d))}) for _ in range(depth))
            self.head = nn.Linear(d, 100)

        def forward(self, x):
            h = self.stem(x)
            for b in self.blocks:
                h = b["pw"](b["dw"](h) + h)
            return self.head(h.mean((2, 3)))

    class Espcn(nn.Module):  # 3x super-resolution by sub-pixel convolution (DepthToSpace)
        def __init__(self, r=3):
            super().__init__()
            self.f = nn.Sequential(nn.Conv2d(1, 64, 5, padding=2), nn.Tanh(), nn.Conv2d(64, 32, 3, padding=1),
                                   nn.Tanh(), nn.Conv2d(32, r * r, 3, padding=1), nn.PixelShuffle(r))

        def forward(self, x):
            return torch.sigmoid(self.f(x))

    class RelBiasEncoder(nn.Module):  # 2 attention layers with a T5-style bucketed relative position bias
        def __init__(self, d=128, heads=4, buckets=32, t=64):
            super().__init__()
            self.heads, self.buckets = heads, buckets
            self.emb = nn.Embedding(500, d)
            self.bias = nn.Embedding(buckets, heads)
            self.qkv = nn.ModuleList(nn.Linear(d, 3 * d) for _ in range(2))
            self.o = nn.ModuleList(nn.Linear(d, d) for _ in range(2))
            self.ff = nn.ModuleList(nn.Sequential(nn.Linear(d, 4 * d), nn.ReLU(), nn.Linear(4 * d, d)) for _ in range(2))
            self.n1 = nn.ModuleList(nn.LayerNorm(d) for _ in range(2))
            self.n2 = nn.ModuleList(nn.LayerNorm(d) for _ in range(2))
            self.out = nn.Linear(d, 2)

        def rel_bias(self, t):
            pos = torch.arange(t)
            rel = pos[None, :] - pos[:, None]
            half = self.buckets // 2
            sign = (rel > 0).long() * half
            n = rel.abs()
            exact = half // 2
            large = exact + (torch.log(n.float().clamp(min=1) / exact) / torch.log(torch.tensor(8.0)) *
                             (half - exact)).long()
            large = torch.minimum(large, torch.full_like(large, half - 1))
            bucket = sign + torch.where(n < exact, n, large)
            return self.bias(bucket).permute(2, 0, 1)[None]  # [1, heads, t, t]

        def forward(self, ids):
            h = self.emb(ids)
            b, t, d = h.shape
            bias = self.rel_bias(t)
            for i in range(2):
                q, k, v = self.qkv[i](self.n1[i](h)).reshape(b, t, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
                a = torch.softmax(q @ k.transpose(-1, -2) / (d // self.heads) ** 0.5 + bias, -1)
                h = h + self.o[i]((a @ v).transpose(1, 2).reshape(b, t, d))
                h = h + self.ff[i](self.n2[i](h))
            return self.out(h.mean(1))

    class DetectHead(nn.Module):  # a small conv backbone, YOLO-style box decoding and the top 50 scores
        def __init__(self, classes=20, anchors=3):
            super().__init__()
            self.c, self.a = classes, anchors
            self.body = nn.Sequential(nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.SiLU(),
                                      nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.SiLU(),
                                      nn.Conv2d(64, 128, 3, stride=2, padding=1), nn.SiLU(),
                                      nn.Conv2d(128, 128, 3, stride=2, padding=1), nn.SiLU())
            self.pred = nn.Conv2d(128, anchors * (5 + classes), 1)
            self.register_buffer("anchor_wh", torch.tensor([[10.0, 13.0], [16.0, 30.0], [33.0, 23.0]]))

        def forward(self, x):
            p = self.pred(self.body(x))
            b, _, hh, ww = p.shape
            p = p.reshape(b, self.a, 5 + self.c, hh, ww).permute(0, 1, 3, 4, 2).sigmoid()
            gy, gx = torch.meshgrid(torch.arange(hh), torch.arange(ww), indexing="ij")
            grid = torch.stack((gx, gy), -1).float()[None, None]
            xy = (p[..., :2] * 2 - 0.5 + grid) * 16
            wh = (p[..., 2:4] * 2) ** 2 * self.anchor_wh[None, :, None, None, :]
            score = p[..., 4:5] * p[..., 5:]
            boxes = torch.cat((xy - wh / 2, xy + wh / 2), -1).reshape(b, -1, 4)
            best, cls = score.reshape(b, -1, self.c).max(-1)
            top, idx = best.topk(50, dim=1)
            return torch.cat((torch.gather(boxes, 1, idx[..., None].expand(-1, -1, 4)), top[..., None],
                              torch.gather(cls, 1, idx)[..., None].float()), -1)

    class SiameseCosine(nn.Module):  # two embeddings of 32 pairs by a shared MLP, their cosine similarity
        def __init__(self, d=256):
            super().__init__()
            self.f = nn.Sequential(nn.Linear(d, 512), nn.ReLU(), nn.Linear(512, 256), nn.ReLU(), nn.Linear(256, 128))

        def forward(self, x):
            a, b = self.f(x[:, 0]), self.f(x[:, 1])
            return (a * b).sum(-1) / (a.norm(dim=-1) * b.norm(dim=-1) + 1e-6)

    export_nets(torch, out, 89, (("convmixer_256_224", ConvMixer, (1, 3, 224, 224)),
                                 ("espcn_x3_128", Espcn, (1, 1, 128, 128)),
                                 ("relbias_encoder_t64", RelBiasEncoder, torch.randint(0, 500, (1, 64))),
                                 ("detect_head_256", DetectHead, (1, 3, 256, 256)),
                                 ("siamese_cosine_b32", SiameseCosine, (32, 2, 256))))
    return 0


def export_seventeenth_set(torch, torchvision, out):
    tv = torchvision.models
    export_images(torch, {"mobilenet_v2_b16_64": (lambda: tv.mobilenet_v2(weights=None), (16, 3, 64, 64))}, out, seed=97)
    nn = torch.nn

    class GatedCnnText(nn.Module):  # 16 sentences of 48 tokens: 1-D convolutions with GLU gates, max over time
        def __init__(self, d=128):
            super().__init__()
            self.e = nn.Embedding(2000, d)
            self.convs = nn.ModuleList(nn.Conv1d(d, 2 * d, k, padding=k // 2) for k in (3, 5, 3))
            self.head = nn.Linear(d, 5)

        def forward(self, ids):
            h = self.e(ids).transpose(1, 2)
            for c in self.convs:
                a, g = c(h).chunk(2, 1)
                h = h + a * torch.sigmoid(g)
            return self.head(h.amax(2))

    class MlpVae(nn.Module):  # encoder to a mean and log-variance, a decoder from mean + exp(logvar / 2)
        def __init__(self):
            super().__init__()
            self.enc = nn.Sequential(nn.Linear(784, 400), nn.ReLU(), nn.Linear(400, 40))
            self.dec = nn.Sequential(nn.Linear(20, 400), nn.ReLU(), nn.Linear(400, 784), nn.Sigmoid())

        def forward(self, x):
            mu, logvar = self.enc(x).chunk(2, 1)
            return self.dec(mu + torch.exp(0.5 * logvar) * 0.1)

    class DwUnet(nn.Module):  # a U-Net of depthwise-separable blocks at 64x64, batch 2
        def __init__(self):
            super().__init__()
            def block(i, o):
                return nn.Sequential(nn.Conv2d(i, i, 3, padding=1, groups=i), nn.Conv2d(i, o, 1), nn.BatchNorm2d(o),
                                     nn.ReLU6())
            self.d1, self.d2, self.d3 = block(3, 32), block(32, 64), block(64, 128)
            self.up2, self.up1 = nn.ConvTranspose2d(128, 64, 2, stride=2), nn.ConvTranspose2d(64, 32, 2, stride=2)
            self.u2, self.u1 = block(128, 64), block(64, 32)
            self.out = nn.Conv2d(32, 2, 1)

        def forward(self, x):
            a = self.d1(x)
            b = self.d2(nn.functional.max_pool2d(a, 2))
            c = self.d3(nn.functional.max_pool2d(b, 2))
            b = self.u2(torch.cat([self.up2(c), b], 1))
            return self.out(self.u1(torch.cat([self.up1(b), a], 1)))

    class ClsTransformer(nn.Module):  # batch 8 of 32 tokens, a class token, 3 encoder layers of width 64
        def __init__(self, d=64):
            super().__init__()
            self.proj = nn.Linear(24, d)
            self.cls = nn.Parameter(torch.zeros(1, 1, d))
            self.pos = nn.Parameter(torch.randn(1, 33, d) * 0.02)
            layer = nn.TransformerEncoderLayer(d, 4, 4 * d, dropout=0.0, batch_first=True, norm_first=True)
            self.enc = nn.TransformerEncoder(layer, 3, enable_nested_tensor=False)
            self.head = nn.Linear(d, 7)

        def forward(self, x):
            h = self.proj(x)
            h = torch.cat([self.cls.expand(h.shape[0], -1, -1), h], 1) + self.pos
            return self.head(self.enc(h)[:, 0])

    class NerfMlp(nn.Module):  # 4096 points: sin/cos positional encoding of 10 frequencies, an 8-layer MLP
        def __init__(self, w=128, freqs=10):
            super().__init__()
            self.register_buffer("f", (2.0 ** torch.arange(freqs)).float() * 3.14159)
            d = 3 + 3 * 2 * freqs
            layers, i = [], d
            for _ in range(8):
                layers += [nn.Linear(i, w), nn.ReLU()]
                i = w
            self.mlp = nn.Sequential(*layers)
            self.rgb = nn.Linear(w, 4)

        def forward(self, x):
            p = (x[..., None] * self.f).flatten(1)
            return self.rgb(self.mlp(torch.cat([x, torch.sin(p), torch.cos(p)], 1)))

    export_nets(torch, out, 97, (("gated_cnn_text_b16", GatedCnnText, torch.randint(0, 2000, (16, 48))),
                                 ("mlp_vae_b64", MlpVae, (64, 784)),
                                 ("dw_unet_64_b2", DwUnet, (2, 3, 64, 64)),
                                 ("cls_transformer_b8", ClsTransformer, (8, 32, 24)),
                                 ("nerf_mlp_4096", NerfMlp, (4096, 3))))
    return 0


def export_eighteenth_set(torch, torchvision, out):
    tv = torchvision.models
    export_images(torch, {"resnet18_b16_64": (lambda: tv.resnet18(weights=None), (16, 3, 64, 64)),
                          "shufflenet_v2_b4_128": (lambda: tv.shufflenet_v2_x1_0(weights=None), (4, 3, 128, 128)),
                          "googlenet_160": (lambda: tv.googlenet(weights=None, aux_logits=False, init_weights=True),
                                            (1, 3, 160, 160))}, out, seed=101)
    nn = torch.nn

    class Tcn(nn.Module):  # batch 8 of 256 steps: dilated causal 1-D convolutions with residuals
        def __init__(self, c=64):
            super().__init__()
            self.inp = nn.Conv1d(12, c, 1)
            self.convs = nn.ModuleList(nn.Conv1d(c, c, 3, dilation=d) for d in (1, 2, 4, 8))
            self.head = nn.Linear(c, 3)

        def forward(self, x):
            h = self.inp(x)
            for conv in self.convs:
                d = conv.dilation[0]
                h = h + torch.relu(conv(nn.functional.pad(h, (2 * d, 0))))
            return self.head(h.mean(2))

    class Mixer(nn.Module):  # MLP-Mixer: 64 patches of 8x8 at 64x64, width 128, 4 blocks, batch 4
        def __init__(self, d=128, t=64):
            super().__init__()
            self.stem = nn.Conv2d(3, d, 8, stride=8)
            self.blocks = nn.ModuleList(nn.ModuleList([nn.LayerNorm(d), nn.Sequential(nn.Linear(t, 256), nn.GELU(), nn.Linear(256, t)),
                                                       nn.LayerNorm(d), nn.Sequential(nn.Linear(d, 512), nn.GELU(), nn.Linear(512, d))])
                                        for _ in range(4))
            self.head = nn.Linear(d, 10)

        def forward(self, x):
            h = self.stem(x).flatten(2).transpose(1, 2)
            for n1, tok, n2, ch in self.blocks:
                h = h + tok(n1(h).transpose(1, 2)).transpose(1, 2)
                h = h + ch(n2(h))
            return self.head(h.mean(1))

    class ConvAe(nn.Module):  # a convolutional autoencoder at 96x96, batch 4: strided Convs, ConvTranspose back
        def __init__(self):
            super().__init__()
            self.enc = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(32, 64, 3, 2, 1),
                                     nn.BatchNorm2d(64), nn.LeakyReLU(0.2), nn.Conv2d(64, 128, 3, 2, 1), nn.LeakyReLU(0.2))
            self.dec = nn.Sequential(nn.ConvTranspose2d(128, 64, 4, 2, 1), nn.ReLU(), nn.ConvTranspose2d(64, 32, 4, 2, 1),
                                     nn.ReLU(), nn.ConvTranspose2d(32, 3, 4, 2, 1), nn.Tanh())

        def forward(self, x):
            return self.dec(self.enc(x))

    class WideDeep(nn.Module):  # 256 rows: 6 categorical fields embedded, 13 dense ones, a wide linear part
        def __init__(self):
            super().__init__()
            self.emb = nn.ModuleList(nn.Embedding(1000, 16) for _ in range(6))
            self.deep = nn.Sequential(nn.Linear(6 * 16 + 13, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(),
                                      nn.Linear(128, 1))
            self.wide = nn.Linear(13, 1)

        def forward(self, x):
            ids = (x[:, :6].abs() * 999).long()
            dense = x[:, 6:]
            e = torch.cat([emb(ids[:, i]) for i, emb in enumerate(self.emb)] + [dense], 1)
            return torch.sigmoid(self.deep(e) + self.wide(dense))

    export_nets(torch, out, 101, (("tcn_b8_256", Tcn, (8, 12, 256)),
                                  ("mlp_mixer_b4_64", Mixer, (4, 3, 64, 64)),
                                  ("conv_ae_b4_96", ConvAe, (4, 3, 96, 96)),
                                  ("wide_deep_b256", WideDeep, (256, 19))))
    return 0


def export_nineteenth_set(torch, torchvision, out):
    tv = torchvision.models
    export_images(torch, {"resnet34_b8_96": (lambda: tv.resnet34(weights=None), (8, 3, 96, 96)),
                          "regnet_x_400mf_b8_96": (lambda: tv.regnet_x_400mf(weights=None), (8, 3, 96, 96)),
                          "mnasnet0_5_b8_96": (lambda: tv.mnasnet0_5(weights=None), (8, 3, 96, 96))}, out, seed=103)
    nn = torch.nn

    class CifarResNet(nn.Module):  # three stages of two basic blocks, 16/32/64 channels at 32x32, batch 32
        def __init__(self):
            super().__init__()
            def block(i, o, s):
                return nn.ModuleDict({"a": nn.Conv2d(i, o, 3, s, 1, bias=False), "bn1": nn.BatchNorm2d(o),
                                      "b": nn.Conv2d(o, o, 3, 1, 1, bias=False), "bn2": nn.BatchNorm2d(o),
                                      "sc": nn.Conv2d(i, o, 1, s, bias=False) if s != 1 or i != o else nn.Identity()})
            self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 1, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU())
            self.blocks = nn.ModuleList([block(16, 16, 1), block(16, 16, 1), block(16, 32, 2), block(32, 32, 1),
                                         block(32, 64, 2), block(64, 64, 1)])
            self.fc = nn.Linear(64, 10)

        def forward(self, x):
            h = self.stem(x)
            for b in self.blocks:
                y = torch.relu(b["bn1"](b["a"](h)))
                h = torch.relu(b["bn2"](b["b"](y)) + b["sc"](h))
            return self.fc(h.mean((2, 3)))

    class DeepUnet(nn.Module):  # a U-Net down to 512 channels at 4x4 from 64x64, batch 2
        def __init__(self):
            super().__init__()
            def two(i, o):
                return nn.Sequential(nn.Conv2d(i, o, 3, padding=1), nn.ReLU(), nn.Conv2d(o, o, 3, padding=1), nn.ReLU())
            self.d = nn.ModuleList([two(3, 32), two(32, 64), two(64, 128), two(128, 256), two(256, 512)])
            self.up = nn.ModuleList([nn.ConvTranspose2d(c, c // 2, 2, 2) for c in (512, 256, 128, 64)])
            self.u = nn.ModuleList([two(c, c // 2) for c in (512, 256, 128, 64)])
            self.out = nn.Conv2d(32, 1, 1)

        def forward(self, x):
            skips = []
            for i, d in enumerate(self.d):
                x = d(x if i == 0 else nn.functional.max_pool2d(x, 2))
                skips.append(x)
            for up, u, s in zip(self.up, self.u, reversed(skips[:-1])):
                x = u(torch.cat([up(x), s], 1))
            return self.out(x)

    export_nets(torch, out, 103, (("cifar_resnet_b32", CifarResNet, (32, 3, 32, 32)),
                                  ("deep_unet_b2_64", DeepUnet, (2, 3, 64, 64))))
    return 0


def export_twentieth_set(torch, torchvision, out):
    tv = torchvision.models
    export_images(torch, {"vgg11_224": (lambda: tv.vgg11(weights=None), (1, 3, 224, 224)),
                          "mobilenet_v3_large_b8_96": (lambda: tv.mobilenet_v3_large(weights=None), (8, 3, 96, 96))},
                  out, seed=107)
    nn = torch.nn

    class MishCsp(nn.Module):  # YOLOv4-style CSP stages with Mish (x * tanh(softplus(x))), batch 4 at 128x128
        def __init__(self):
            super().__init__()
            def cbm(i, o, k=3, s=1):
                return nn.Sequential(nn.Conv2d(i, o, k, s, k // 2, bias=False), nn.BatchNorm2d(o), nn.Mish())
            self.stem = cbm(3, 32)
            self.stages = nn.ModuleList()
            for i, o in ((32, 64), (64, 128), (128, 256)):
                self.stages.append(nn.ModuleDict({"down": cbm(i, o, 3, 2), "a": cbm(o, o // 2, 1), "b": cbm(o, o // 2, 1),
                                                  "res": nn.Sequential(cbm(o // 2, o // 2, 1), cbm(o // 2, o // 2)),
                                                  "out": cbm(o, o, 1)}))
            self.head = nn.Conv2d(256, 18, 1)

        def forward(self, x):
            x = self.stem(x)
            for st in self.stages:
                x = st["down"](x)
                b = st["b"](x)
                x = st["out"](torch.cat([st["a"](x), b + st["res"](b)], 1))
            return self.head(x)

    class PreNormVit(nn.Module):  # 8x8 patches of 64x64 images, 6 pre-norm GELU layers of width 256, batch 4
        def __init__(self):
            super().__init__()
            self.patch = nn.Conv2d(3, 256, 8, 8)
            self.pos = nn.Parameter(torch.randn(1, 65, 256) * 0.02)
            self.cls = nn.Parameter(torch.zeros(1, 1, 256))
            layer = nn.TransformerEncoderLayer(256, 8, 768, dropout=0.0, activation="gelu", batch_first=True, norm_first=True)
            self.enc = nn.TransformerEncoder(layer, 6)
            self.norm = nn.LayerNorm(256)
            self.head = nn.Linear(256, 100)

        def forward(self, x):
            t = self.patch(x).flatten(2).transpose(1, 2)
            t = torch.cat([self.cls.expand(x.shape[0], -1, -1), t], 1) + self.pos
            return self.head(self.norm(self.enc(t))[:, 0])

    class PointNet(nn.Module):  # shared per-point MLPs (1x1 Conv1d), a max over 1024 points, batch 16
        def __init__(self):
            super().__init__()
            self.f = nn.Sequential(nn.Conv1d(3, 64, 1), nn.BatchNorm1d(64), nn.ReLU(), nn.Conv1d(64, 128, 1),
                                   nn.BatchNorm1d(128), nn.ReLU(), nn.Conv1d(128, 1024, 1), nn.BatchNorm1d(1024))
            self.c = nn.Sequential(nn.Linear(1024, 512), nn.ReLU(), nn.Linear(512, 256), nn.ReLU(), nn.Linear(256, 40))

        def forward(self, x):
            return self.c(self.f(x).max(2)[0])

    class Crnn(nn.Module):  # a text-line recogniser: a CNN over 32x128 crops, a bidirectional GRU, batch 4
        def __init__(self):
            super().__init__()
            c = [1, 32, 64, 128, 128]
            layers = []
            for i in range(4):
                layers += [nn.Conv2d(c[i], c[i + 1], 3, 1, 1), nn.ReLU(), nn.MaxPool2d((2, 2) if i < 2 else (2, 1))]
            self.cnn = nn.Sequential(*layers)
            self.rnn = nn.GRU(256, 128, bidirectional=True, batch_first=True)
            self.fc = nn.Linear(256, 37)

        def forward(self, x):
            f = self.cnn(x)  # [4, 128, 2, 32]
            f = f.flatten(1, 2).permute(0, 2, 1)
            h, _ = self.rnn(f)
            return self.fc(h).log_softmax(-1)

    class CausalDecoder(nn.Module):  # 3 decoder layers (causal self-attention, cross-attention), batch 2
        def __init__(self):
            super().__init__()
            layer = nn.TransformerDecoderLayer(192, 4, 512, dropout=0.0, batch_first=True)
            self.d = nn.TransformerDecoder(layer, 3)
            self.register_buffer("mask", torch.triu(torch.full((48, 48), float("-inf")), 1))
            self.mem = nn.Parameter(torch.randn(2, 64, 192))
            self.o = nn.Linear(192, 500)

        def forward(self, x):
            return self.o(self.d(x, self.mem, tgt_mask=self.mask))

    export_nets(torch, out, 107, (("mish_csp_b4_128", MishCsp, (4, 3, 128, 128)),
                                  ("prenorm_vit_b4_64", PreNormVit, (4, 3, 64, 64)),
                                  ("pointnet_b16_1024", PointNet, (16, 3, 1024)),
                                  ("crnn_b4_32x128", Crnn, (4, 1, 32, 128)),
                                  ("causal_decoder_b2_t48", CausalDecoder, torch.randn(2, 48, 192))))
    return 0


def export_twenty_first_set(torch, torchvision, out):
    nn = torch.nn

    class DcganGenerator(nn.Module):  # DCGAN's generator: a 100-d code to a 64x64 image by ConvTranspose, batch 16
        def __init__(self):
            super().__init__()
            c = [100, 512, 256, 128, 64]
            layers = []
            for i in range(4):
                layers += [nn.ConvTranspose2d(c[i], c[i + 1], 4, 1 if i == 0 else 2, 0 if i == 0 else 1, bias=False),
                           nn.BatchNorm2d(c[i + 1]), nn.ReLU()]
            layers += [nn.ConvTranspose2d(64, 3, 4, 2, 1, bias=False), nn.Tanh()]
            self.g = nn.Sequential(*layers)

        def forward(self, z):
            return self.g(z.reshape(z.shape[0], 100, 1, 1))

    class Wav2VecLite(nn.Module):  # wav2vec 2.0's conv feature encoder (GroupNorm, GELU) and 2 layers, 1 s at 16 kHz, batch 2
        def __init__(self):
            super().__init__()
            spec = [(10, 5)] + [(3, 2)] * 4 + [(2, 2)] * 2
            layers, c = [], 1
            for i, (k, s) in enumerate(spec):
                layers += [nn.Conv1d(c, 256, k, s, bias=False)] + ([nn.GroupNorm(256, 256)] if i == 0 else []) + [nn.GELU()]
                c = 256
            self.fe = nn.Sequential(*layers)
            self.norm = nn.LayerNorm(256)
            self.proj = nn.Linear(256, 384)
            self.pos = nn.Conv1d(384, 384, 33, padding=16, groups=16)
            layer = nn.TransformerEncoderLayer(384, 6, 1536, dropout=0.0, activation="gelu", batch_first=True)
            self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)

        def forward(self, wav):
            f = self.proj(self.norm(self.fe(wav.unsqueeze(1)).transpose(1, 2)))
            f = f + nn.functional.gelu(self.pos(f.transpose(1, 2))).transpose(1, 2)
            return self.enc(f)

    class XceptionLite(nn.Module):  # Xception's entry flow: separable Convs with strided 1x1 shortcuts, 128x128, batch 4
        def __init__(self):
            super().__init__()
            def sep(i, o):
                return nn.Sequential(nn.Conv2d(i, i, 3, 1, 1, groups=i, bias=False), nn.Conv2d(i, o, 1, bias=False), nn.BatchNorm2d(o))
            self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU(),
                                      nn.Conv2d(32, 64, 3, 1, 1, bias=False), nn.BatchNorm2d(64), nn.ReLU())
            self.blocks = nn.ModuleList()
            for i, o in ((64, 128), (128, 256), (256, 728)):
                self.blocks.append(nn.ModuleDict({"body": nn.Sequential(sep(i, o), nn.ReLU(), sep(o, o), nn.MaxPool2d(3, 2, 1)),
                                                  "skip": nn.Sequential(nn.Conv2d(i, o, 1, 2, bias=False), nn.BatchNorm2d(o))}))
            self.head = nn.Linear(728, 1000)

        def forward(self, x):
            x = self.stem(x)
            for b in self.blocks:
                x = b["body"](x) + b["skip"](x)
            return self.head(x.mean((2, 3)))

    class StyleTransfer(nn.Module):  # Johnson et al.'s transform net: InstanceNorm, 5 residual blocks, upsampling, 128x128, batch 2
        def __init__(self):
            super().__init__()
            def cin(i, o, k, s):
                return [nn.ReflectionPad2d(k // 2), nn.Conv2d(i, o, k, s), nn.InstanceNorm2d(o, affine=True)]
            self.down = nn.Sequential(*cin(3, 32, 9, 1), nn.ReLU(), *cin(32, 64, 3, 2), nn.ReLU(), *cin(64, 128, 3, 2), nn.ReLU())
            self.res = nn.ModuleList(nn.Sequential(*cin(128, 128, 3, 1), nn.ReLU(), *cin(128, 128, 3, 1)) for _ in range(5))
            self.up = nn.Sequential(nn.Upsample(scale_factor=2, mode="nearest"), *cin(128, 64, 3, 1), nn.ReLU(),
                                    nn.Upsample(scale_factor=2, mode="nearest"), *cin(64, 32, 3, 1), nn.ReLU(),
                                    nn.ReflectionPad2d(4), nn.Conv2d(32, 3, 9, 1))

        def forward(self, x):
            x = self.down(x)
            for r in self.res:
                x = x + r(x)
            return self.up(x)

    class AsppHead(nn.Module):  # a ResNet-style stem and an atrous spatial pyramid (dilations 6, 12, 18), 128x128, batch 2
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 64, 7, 2, 3), nn.ReLU(), nn.Conv2d(64, 128, 3, 2, 1), nn.ReLU(),
                                      nn.Conv2d(128, 256, 3, 2, 1), nn.ReLU())
            self.branches = nn.ModuleList([nn.Sequential(nn.Conv2d(256, 128, 1), nn.ReLU())] +
                                          [nn.Sequential(nn.Conv2d(256, 128, 3, padding=d, dilation=d), nn.ReLU()) for d in (6, 12, 18)])
            self.pool = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(256, 128, 1), nn.ReLU())
            self.out = nn.Sequential(nn.Conv2d(640, 128, 1), nn.ReLU(), nn.Conv2d(128, 21, 1))

        def forward(self, x):
            f = self.stem(x)
            p = self.pool(f).expand(-1, -1, f.shape[2], f.shape[3])
            y = self.out(torch.cat([b(f) for b in self.branches] + [p], 1))
            return nn.functional.interpolate(y, scale_factor=8.0, mode="bilinear", align_corners=False)

    class FtTransformer(nn.Module):  # FT-Transformer on 24 numeric features: per-feature embeddings, 3 layers, batch 64
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.randn(24, 96) * 0.1)
            self.b = nn.Parameter(torch.randn(24, 96) * 0.1)
            self.cls = nn.Parameter(torch.zeros(1, 1, 96))
            layer = nn.TransformerEncoderLayer(96, 8, 128, dropout=0.0, activation="relu", batch_first=True, norm_first=True)
            self.enc = nn.TransformerEncoder(layer, 3, enable_nested_tensor=False)
            self.head = nn.Sequential(nn.LayerNorm(96), nn.ReLU(), nn.Linear(96, 2))

        def forward(self, x):
            t = x.unsqueeze(-1) * self.w + self.b
            t = torch.cat([self.cls.expand(x.shape[0], -1, -1), t], 1)
            return self.head(self.enc(t)[:, 0])

    class GatedLinearLm(nn.Module):  # a gated convolutional language model (GLU over causal 1-D Convs), 128 tokens, batch 8
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(8000, 256)
            self.convs = nn.ModuleList(nn.Conv1d(256, 512, 4) for _ in range(6))
            self.out = nn.Linear(256, 8000)

        def forward(self, t):
            h = self.emb(t).transpose(1, 2)
            for c in self.convs:
                h = h + nn.functional.glu(c(nn.functional.pad(h, (3, 0))), dim=1)
            return self.out(h.transpose(1, 2)).log_softmax(-1)

    torch.manual_seed(108)
    export_nets(torch, out, 108, (("dcgan_gen_b16", DcganGenerator, (16, 100)),
                                  ("wav2vec_lite_b2", Wav2VecLite, torch.randn(2, 16000)),
                                  ("xception_entry_b4_128", XceptionLite, (4, 3, 128, 128)),
                                  ("style_transfer_b2_128", StyleTransfer, (2, 3, 128, 128)),
                                  ("aspp_b2_128", AsppHead, (2, 3, 128, 128)),
                                  ("ft_transformer_b64", FtTransformer, torch.randn(64, 24)),
                                  ("gated_conv_lm_b8_t128", GatedLinearLm, torch.randint(0, 8000, (8, 128)))))
    return 0


def quantize_dequantize(src, dst):
    """Rewrite the ONNX model at `src` as a QDQ quantiser writes it, to `dst`: every Conv's weight an int8
    initializer behind a DequantizeLinear (per output channel, symmetric), its input behind a
    QuantizeLinear/DequantizeLinear pair (uint8, one scale)."""
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper
    m = onnx.load(src)
    g = m.graph
    inits = {t.name: t for t in g.initializer}
    nodes = []
    for n in g.node:
        if n.op_type == "Conv" and n.input[1] in inits:
            w = numpy_helper.to_array(inits[n.input[1]])
            scale = np.maximum(np.abs(w).reshape(w.shape[0], -1).max(1), 1e-8) / 127.0
            q = np.clip(np.round(w / scale.reshape(-1, 1, 1, 1)), -127, 127).astype(np.int8)
            base = n.name.replace("/", "_") or n.output[0]
            g.initializer.extend([numpy_helper.from_array(q, base + "_wq"),
                                  numpy_helper.from_array(scale.astype(np.float32), base + "_ws"),
                                  numpy_helper.from_array(np.zeros(w.shape[0], np.int8), base + "_wz"),
                                  numpy_helper.from_array(np.array(0.05, np.float32), base + "_xs"),
                                  numpy_helper.from_array(np.array(128, np.uint8), base + "_xz")])
            nodes += [helper.make_node("DequantizeLinear", [base + "_wq", base + "_ws", base + "_wz"], [base + "_w"], axis=0),
                      helper.make_node("QuantizeLinear", [n.input[0], base + "_xs", base + "_xz"], [base + "_xq"]),
                      helper.make_node("DequantizeLinear", [base + "_xq", base + "_xs", base + "_xz"], [base + "_x"])]
            n.input[0], n.input[1] = base + "_x", base + "_w"
        nodes.append(n)
    del g.node[:]
    g.node.extend(nodes)
    used = {i for n in g.node for i in n.input}
    keep = [t for t in g.initializer if t.name in used]
    del g.initializer[:]
    g.initializer.extend(keep)
    onnx.checker.check_model(m)
    onnx.save(m, dst)


def export_twenty_second_set(torch, torchvision, out):
    nn = torch.nn

    class LstmStream(nn.Module):  # a streaming keyword spotter: one 80-d frame a call, two LSTM layers, state in and out
        def __init__(self):
            super().__init__()
            self.l = nn.LSTM(80, 128, num_layers=2)
            self.out = nn.Linear(128, 12)

        def forward(self, x, h, c):
            y, (h2, c2) = self.l(x, (h, c))
            return self.out(y[-1]).softmax(-1), h2, c2

    class GruStream(nn.Module):  # a streaming denoiser's GRU: one frame a call for 4 streams, 96 -> 192, state in and out
        def __init__(self):
            super().__init__()
            self.inp = nn.Linear(257, 96)
            self.g = nn.GRU(96, 192)
            self.mask = nn.Linear(192, 257)

        def forward(self, x, h):
            y, h2 = self.g(torch.relu(self.inp(x)), h)
            return torch.sigmoid(self.mask(y)) * x, h2

    class Unet1d(nn.Module):  # a 1-D U-Net over 4096 samples (strided Conv1d down, ConvTranspose1d up), batch 2
        def __init__(self):
            super().__init__()
            c = [1, 32, 64, 128]
            self.down = nn.ModuleList(nn.Sequential(nn.Conv1d(c[i], c[i + 1], 15, 2, 7), nn.LeakyReLU(0.1)) for i in range(3))
            self.up = nn.ModuleList(nn.Sequential(nn.ConvTranspose1d(c[i + 1] * (1 if i == 2 else 2), c[i], 16, 2, 7),
                                                  nn.LeakyReLU(0.1)) for i in reversed(range(1, 3)))
            self.last = nn.ConvTranspose1d(64, 1, 16, 2, 7)

        def forward(self, x):
            skips = []
            for d in self.down:
                x = d(x)
                skips.append(x)
            for u, s in zip(self.up, reversed(skips[:-1])):
                x = torch.cat([u(x), s], 1)
            return torch.tanh(self.last(x))

    torch.manual_seed(109)
    for name, net, xs, names in (("lstm_stream_2l", LstmStream, (torch.rand(1, 1, 80), torch.zeros(2, 1, 128), torch.zeros(2, 1, 128)),
                                  ["x", "h", "c"]),
                                 ("gru_stream_b4", GruStream, (torch.rand(1, 4, 257), torch.zeros(1, 4, 192)), ["x", "h"])):
        torch.manual_seed(109)
        torch.onnx.export(net().eval(), xs, os.path.join(out, name + ".onnx"), opset_version=13, input_names=names)
        print("exported", name, flush=True)
    export_nets(torch, out, 109, (("unet1d_b2_4k", Unet1d, (2, 1, 4096)),))
    tv = torchvision.models
    export_images(torch, {"regnet_y_800mf_b2_128": (lambda: tv.regnet_y_800mf(weights=None), (2, 3, 128, 128)),
                          "shufflenet_v2_x0_5_b8_112": (lambda: tv.shufflenet_v2_x0_5(weights=None), (8, 3, 112, 112))},
                  out, 109)
    plain = os.path.join(out, "resnet18_96.tmp.onnx")
    export_images(torch, {"resnet18_96.tmp": (lambda: tv.resnet18(weights=None), (1, 3, 96, 96))}, out, 109)
    quantize_dequantize(plain, os.path.join(out, "resnet18_qdq_96.onnx"))
    os.remove(plain)
    print("exported resnet18_qdq_96", flush=True)
    return 0


def export_twenty_third_set(torch, torchvision, out):
    nn = torch.nn

    class HifiGanLite(nn.Module):  # a HiFi-GAN-style vocoder: 80 mel bins x 32 frames to 8192 samples (x8, x8, x2, x2)
        def __init__(self):
            super().__init__()
            self.pre = nn.Conv1d(80, 256, 7, padding=3)
            ups, c = [], 256
            for r, k in ((8, 16), (8, 16), (2, 4), (2, 4)):
                ups.append(nn.ConvTranspose1d(c, c // 2, k, r, (k - r) // 2))
                c //= 2
            self.ups = nn.ModuleList(ups)
            self.res = nn.ModuleList(nn.Conv1d(256 >> (i + 1), 256 >> (i + 1), 3, padding=d, dilation=d)
                                     for i, d in enumerate((1, 3, 5, 1)))
            self.post = nn.Conv1d(16, 1, 7, padding=3)

        def forward(self, x):
            x = self.pre(x)
            for u, r in zip(self.ups, self.res):
                x = u(nn.functional.leaky_relu(x, 0.1))
                x = x + r(nn.functional.leaky_relu(x, 0.1))
            return torch.tanh(self.post(nn.functional.leaky_relu(x, 0.1)))

    class DemucsDecoderLite(nn.Module):  # a Demucs-style waveform encoder/decoder (k8 s4, GLU), 2 channels, 16384 samples
        def __init__(self):
            super().__init__()
            ch = [2, 32, 64, 128]
            self.enc = nn.ModuleList(nn.Sequential(nn.Conv1d(ch[i], ch[i + 1], 8, 4), nn.ReLU(),
                                                   nn.Conv1d(ch[i + 1], 2 * ch[i + 1], 1), nn.GLU(1)) for i in range(3))
            self.dec = nn.ModuleList(nn.Sequential(nn.Conv1d(ch[i + 1], 2 * ch[i + 1], 3, padding=1), nn.GLU(1),
                                                   nn.ConvTranspose1d(ch[i + 1], ch[i], 8, 4)) for i in reversed(range(3)))

        def forward(self, x):
            skips = []
            for e in self.enc:
                x = e(x)
                skips.append(x)
            for d in self.dec:
                s = skips.pop()
                x = d(x + s[..., :x.shape[-1]])
                if skips:
                    x = torch.relu(x)
            return x

    export_nets(torch, out, 113, (("hifigan_lite_b1", HifiGanLite, (1, 80, 32)),
                                  ("demucs_lite_b1", DemucsDecoderLite, (1, 2, 16384))))
    return 0


def export_twenty_fourth_set(torch, torchvision, out):
    nn = torch.nn

    class Pix2PixLite(nn.Module):  # a pix2pix-style U-Net generator: 4x4 stride-2 down and up, BN, skips, 3 channels out
        def __init__(self):
            super().__init__()
            ch = [3, 48, 96, 192, 192]
            self.down = nn.ModuleList(nn.Sequential(nn.Conv2d(ch[i], ch[i + 1], 4, 2, 1), nn.BatchNorm2d(ch[i + 1]),
                                                    nn.LeakyReLU(0.2)) for i in range(4))
            self.up = nn.ModuleList()
            for i in reversed(range(1, 4)):
                cin = ch[i + 1] if i == 3 else 2 * ch[i + 1]
                self.up.append(nn.Sequential(nn.ConvTranspose2d(cin, ch[i], 4, 2, 1), nn.BatchNorm2d(ch[i]), nn.ReLU()))
            self.last = nn.ConvTranspose2d(2 * ch[1], 3, 4, 2, 1)

        def forward(self, x):
            skips = []
            for d in self.down:
                x = d(x)
                skips.append(x)
            skips.pop()
            for u in self.up:
                x = torch.cat([u(x), skips.pop()], 1)
            return torch.tanh(self.last(x))

    class MelGanLite(nn.Module):  # a MelGAN-style generator: 64 mel bins x 40 frames, x8 x8 x2 x2 up, 320 channels down to 20
        def __init__(self):
            super().__init__()
            self.pre = nn.Conv1d(64, 320, 7, padding=3)
            layers, c = [], 320
            for r in (8, 8, 2, 2):
                layers += [nn.LeakyReLU(0.2), nn.ConvTranspose1d(c, c // 2, 2 * r, r, r // 2),
                           nn.LeakyReLU(0.2), nn.Conv1d(c // 2, c // 2, 3, padding=1)]
                c //= 2
            self.body = nn.Sequential(*layers)
            self.post = nn.Conv1d(c, 1, 7, padding=3)

        def forward(self, x):
            return torch.tanh(self.post(self.body(self.pre(x))))

    class FcnHead(nn.Module):  # an FCN-style head: 1x1 to 21 classes, then a per-class (grouped) x4 ConvTranspose, twice
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(nn.Conv2d(3, 64, 3, 2, 1), nn.ReLU(), nn.Conv2d(64, 128, 3, 2, 1), nn.ReLU(),
                                      nn.Conv2d(128, 256, 3, 2, 1), nn.ReLU())
            self.score = nn.Conv2d(256, 21, 1)
            self.up2 = nn.ConvTranspose2d(21, 21, 4, 2, 1, groups=21, bias=False)
            self.up4 = nn.ConvTranspose2d(21, 21, 8, 4, 2, groups=21, bias=False)

        def forward(self, x):
            return self.up4(self.up2(self.score(self.body(x))))

    class VaeDecoder(nn.Module):  # a conv-VAE decoder at batch 8: latent 32 to 1x28x28, output_padding on the ups
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(32, 128 * 7 * 7)
            self.up = nn.Sequential(nn.ConvTranspose2d(128, 64, 3, 2, 1, output_padding=1), nn.ReLU(),
                                    nn.ConvTranspose2d(64, 1, 3, 2, 1, output_padding=1))

        def forward(self, z):
            return torch.sigmoid(self.up(self.fc(z).view(-1, 128, 7, 7)))

    class Unet3dLite(nn.Module):  # a small 3-D U-Net decoder path: 2x2x2 stride-2 ConvTranspose3d over a 32^3 volume
        def __init__(self):
            super().__init__()
            self.e1 = nn.Sequential(nn.Conv3d(1, 16, 3, padding=1), nn.ReLU())
            self.e2 = nn.Sequential(nn.MaxPool3d(2), nn.Conv3d(16, 32, 3, padding=1), nn.ReLU())
            self.e3 = nn.Sequential(nn.MaxPool3d(2), nn.Conv3d(32, 64, 3, padding=1), nn.ReLU())
            self.u2 = nn.ConvTranspose3d(64, 32, 2, 2)
            self.d2 = nn.Sequential(nn.Conv3d(64, 32, 3, padding=1), nn.ReLU())
            self.u1 = nn.ConvTranspose3d(32, 16, 2, 2)
            self.d1 = nn.Sequential(nn.Conv3d(32, 16, 3, padding=1), nn.ReLU(), nn.Conv3d(16, 2, 1))

        def forward(self, x):
            a = self.e1(x)
            b = self.e2(a)
            c = self.e3(b)
            b = self.d2(torch.cat([self.u2(c), b], 1))
            return self.d1(torch.cat([self.u1(b), a], 1))

    export_nets(torch, out, 117, (("pix2pix_lite_128", Pix2PixLite, (1, 3, 128, 128)),
                                  ("melgan_lite_b1", MelGanLite, (1, 64, 40)),
                                  ("fcn_head_grouped_up_192", FcnHead, (1, 3, 192, 192)),
                                  ("vae_decoder_b8", VaeDecoder, (8, 32)),
                                  ("unet3d_lite_32", Unet3dLite, (1, 1, 32, 32, 32))))
    return 0


def export_twenty_fifth_set(torch, torchvision, out):
    """Attention at sequence lengths no earlier set has (26, 33, 75, 100, 20 per set), LayerNorm as one op
    (opset 17) and decomposed (opset 13), a language model's LogSoftmax over its vocabulary."""
    nn = torch.nn

    def encoder(d, heads, layers, ff):
        layer = nn.TransformerEncoderLayer(d, heads, ff, dropout=0.0, batch_first=True)
        return nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)

    class VitTiny(nn.Module):  # ViT, 8x8 patches of a 40x40 image: 25 patches + a class token, batch 2
        def __init__(self):
            super().__init__()
            self.patch = nn.Conv2d(3, 96, 8, 8)
            self.cls = nn.Parameter(torch.randn(1, 1, 96))
            self.pos = nn.Parameter(torch.randn(1, 26, 96))
            self.enc = encoder(96, 3, 4, 384)
            self.norm = nn.LayerNorm(96)
            self.head = nn.Linear(96, 10)

        def forward(self, x):
            t = self.patch(x).flatten(2).transpose(1, 2)
            t = torch.cat([self.cls.expand(x.shape[0], -1, -1), t], 1) + self.pos
            return self.head(self.norm(self.enc(t))[:, 0])

    class BertLite(nn.Module):  # a text encoder over 100 tokens, 4 heads of 32, 3 layers
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(3000, 128)
            self.pos = nn.Parameter(torch.randn(1, 100, 128))
            self.enc = encoder(128, 4, 3, 512)
            self.cls = nn.Linear(128, 2)

        def forward(self, ids):
            return self.cls(self.enc(self.emb(ids) + self.pos).mean(1))

    class DecoderLm(nn.Module):  # a causal decoder over 33 tokens, log-probabilities over 2000 words
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(2000, 128)
            self.pos = nn.Parameter(torch.randn(1, 33, 128))
            self.enc = encoder(128, 4, 2, 256)
            self.out = nn.Linear(128, 2000)
            self.register_buffer("mask", torch.triu(torch.full((33, 33), float("-inf")), 1))

        def forward(self, ids):
            h = self.enc(self.emb(ids) + self.pos, mask=self.mask)
            return torch.log_softmax(self.out(h), -1)

    class SetTransformer(nn.Module):  # self-attention within each of 16 sets of 20 points, pooled by attention
        def __init__(self):
            super().__init__()
            self.inp = nn.Linear(3, 64)
            self.enc = encoder(64, 4, 2, 128)
            self.seed = nn.Parameter(torch.randn(1, 1, 64))
            self.pool = nn.MultiheadAttention(64, 4, batch_first=True)
            self.out = nn.Linear(64, 40)

        def forward(self, x):
            h = self.enc(self.inp(x))
            q = self.seed.expand(x.shape[0], -1, -1)
            return self.out(self.pool(q, h, h, need_weights=False)[0].squeeze(1))

    class SpeechEncoder(nn.Module):  # two stride-2 Conv1d over 300 frames of 80 mel bins, then 75 frames of attention
        def __init__(self):
            super().__init__()
            self.sub = nn.Sequential(nn.Conv1d(80, 144, 3, 2, 1), nn.GELU(), nn.Conv1d(144, 144, 3, 2, 1), nn.GELU())
            self.enc = encoder(144, 4, 3, 576)
            self.ctc = nn.Linear(144, 30)

        def forward(self, x):
            return torch.log_softmax(self.ctc(self.enc(self.sub(x).transpose(1, 2))), -1)

    export_nets(torch, out, 125, (("vit_tiny_p8_b2_40", VitTiny, (2, 3, 40, 40)),
                                  ("decoder_lm_t33", DecoderLm, torch.randint(0, 2000, (1, 33))),
                                  ("set_transformer_b16_n20", SetTransformer, (16, 20, 3)),
                                  ("speech_encoder_t75", SpeechEncoder, (1, 80, 300))), opset=17)
    export_nets(torch, out, 125, (("bert_lite_t100", BertLite, torch.randint(0, 3000, (1, 100))),))
    return 0


def export_twenty_sixth_set(torch, torchvision, out):
    """Exported in session 26 after the cold-call cost and the live-peak footprint, to be measured only:
    a text CNN, a two-tower recommender, a tiny detector's backbone and head, a pre-norm GPT block stack
    with GELU, a small U-Net with ConvTranspose upsampling and skip concatenations."""
    nn = torch.nn

    class TextCnn(nn.Module):  # 16 sentences of 64 tokens: Conv1d of widths 3, 4, 5, max over time
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(5000, 128)
            self.convs = nn.ModuleList([nn.Conv1d(128, 100, k) for k in (3, 4, 5)])
            self.fc = nn.Linear(300, 4)

        def forward(self, ids):
            e = self.emb(ids).transpose(1, 2)
            return self.fc(torch.cat([torch.relu(c(e)).amax(2) for c in self.convs], 1))

    class TwoTower(nn.Module):  # 256 user-item pairs: two embedding towers, a dot product and a sigmoid
        def __init__(self):
            super().__init__()
            self.users, self.items = nn.Embedding(10000, 32), nn.Embedding(20000, 32)
            self.ut = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 64))
            self.it = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 64))

        def forward(self, ids):
            u, i = self.ut(self.users(ids[:, 0])), self.it(self.items(ids[:, 1]))
            return torch.sigmoid((u * i).sum(1))

    class TinyDetector(nn.Module):  # 2 images of 160x160: four stride-2 Conv-BN-LeakyReLU, a 1x1 head
        def __init__(self):
            super().__init__()
            layers, c = [], 3
            for co in (16, 32, 64, 128):
                layers += [nn.Conv2d(c, co, 3, 2, 1, bias=False), nn.BatchNorm2d(co), nn.LeakyReLU(0.1)]
                c = co
            self.body = nn.Sequential(*layers)
            self.head = nn.Conv2d(128, 3 * 25, 1)

        def forward(self, x):
            y = self.head(self.body(x))
            return torch.sigmoid(y.view(x.shape[0], 3, 25, 10, 10).permute(0, 1, 3, 4, 2))

    class GptBlocks(nn.Module):  # 4 sequences of 64 tokens, width 192, 3 heads, 2 pre-norm blocks, causal
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(1000, 192)
            self.pos = nn.Parameter(torch.randn(1, 64, 192))
            self.ln1 = nn.ModuleList([nn.LayerNorm(192) for _ in range(2)])
            self.ln2 = nn.ModuleList([nn.LayerNorm(192) for _ in range(2)])
            self.qkv = nn.ModuleList([nn.Linear(192, 576) for _ in range(2)])
            self.proj = nn.ModuleList([nn.Linear(192, 192) for _ in range(2)])
            self.mlp = nn.ModuleList([nn.Sequential(nn.Linear(192, 768), nn.GELU(), nn.Linear(768, 192)) for _ in range(2)])
            self.register_buffer("mask", torch.triu(torch.ones(64, 64, dtype=torch.bool), 1))
            self.out = nn.Linear(192, 1000)

        def forward(self, ids):
            h = self.emb(ids) + self.pos
            b, t, d = h.shape
            for k in range(2):
                q, kk, v = self.qkv[k](self.ln1[k](h)).split(d, 2)
                q, kk, v = (z.view(b, t, 3, 64).transpose(1, 2) for z in (q, kk, v))
                a = (q @ kk.transpose(-1, -2)) / 8.0
                a = torch.softmax(a.masked_fill(self.mask, float("-inf")), -1)
                h = h + self.proj[k]((a @ v).transpose(1, 2).reshape(b, t, d))
                h = h + self.mlp[k](self.ln2[k](h))
            return self.out(h)

    class UnetLite(nn.Module):  # one image of 96x96: 16-32-64 channels down, ConvTranspose up, skips concatenated
        def __init__(self):
            super().__init__()
            def block(ci, co):
                return nn.Sequential(nn.Conv2d(ci, co, 3, 1, 1), nn.ReLU(), nn.Conv2d(co, co, 3, 1, 1), nn.ReLU())
            self.d1, self.d2, self.mid = block(3, 16), block(16, 32), block(32, 64)
            self.u2, self.c2 = nn.ConvTranspose2d(64, 32, 2, 2), block(64, 32)
            self.u1, self.c1 = nn.ConvTranspose2d(32, 16, 2, 2), block(32, 16)
            self.out = nn.Conv2d(16, 2, 1)

        def forward(self, x):
            a = self.d1(x)
            b = self.d2(nn.functional.max_pool2d(a, 2))
            m = self.mid(nn.functional.max_pool2d(b, 2))
            y = self.c2(torch.cat([self.u2(m), b], 1))
            return self.out(self.c1(torch.cat([self.u1(y), a], 1)))

    export_nets(torch, out, 126, (("text_cnn_b16_t64", TextCnn, torch.randint(0, 5000, (16, 64))),
                                  ("two_tower_b256", TwoTower, torch.randint(0, 10000, (256, 2))),
                                  ("tiny_detector_b2_160", TinyDetector, (2, 3, 160, 160)),
                                  ("gpt_blocks_b4_t64", GptBlocks, torch.randint(0, 1000, (4, 64))),
                                  ("unet_lite_96", UnetLite, (1, 3, 96, 96))))
    return 0


def export_twenty_seventh_set(torch, out):
    nn = torch.nn

    class RmsNorm(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.w = nn.Parameter(torch.ones(d))

        def forward(self, x):
            return self.w * x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)

    class RmsSwiglu(nn.Module):  # 2 sequences of 50 tokens, width 256, 4 heads, 2 RMSNorm blocks, SwiGLU MLP
        def __init__(self):
            super().__init__()
            self.n1 = nn.ModuleList([RmsNorm(256) for _ in range(2)])
            self.n2 = nn.ModuleList([RmsNorm(256) for _ in range(2)])
            self.qkv = nn.ModuleList([nn.Linear(256, 768, bias=False) for _ in range(2)])
            self.o = nn.ModuleList([nn.Linear(256, 256, bias=False) for _ in range(2)])
            self.up = nn.ModuleList([nn.Linear(256, 1024, bias=False) for _ in range(2)])
            self.down = nn.ModuleList([nn.Linear(512, 256, bias=False) for _ in range(2)])

        def forward(self, h):
            b, t, d = h.shape
            for k in range(2):
                q, kk, v = self.qkv[k](self.n1[k](h)).split(d, 2)
                q, kk, v = (z.view(b, t, 4, 64).transpose(1, 2) for z in (q, kk, v))
                a = torch.softmax(q @ kk.transpose(-1, -2) / 8.0, -1)
                h = h + self.o[k]((a @ v).transpose(1, 2).reshape(b, t, d))
                g, u = self.up[k](self.n2[k](h)).chunk(2, -1)
                h = h + self.down[k](nn.functional.silu(g) * u)
            return h

    class ConvNextLite(nn.Module):  # 2 images of 64x64: a 4x4 stem, 3 blocks of depthwise 7x7 + channel LayerNorm + MLP
        def __init__(self):
            super().__init__()
            self.stem = nn.Conv2d(3, 48, 4, 4)
            self.dw = nn.ModuleList([nn.Conv2d(48, 48, 7, 1, 3, groups=48) for _ in range(3)])
            self.ln = nn.ModuleList([nn.LayerNorm(48) for _ in range(3)])
            self.mlp = nn.ModuleList([nn.Sequential(nn.Linear(48, 192), nn.GELU(), nn.Linear(192, 48)) for _ in range(3)])
            self.head = nn.Linear(48, 10)

        def forward(self, x):
            x = self.stem(x)
            for k in range(3):
                y = self.dw[k](x).permute(0, 2, 3, 1)
                x = x + self.mlp[k](self.ln[k](y)).permute(0, 3, 1, 2)
            return self.head(x.mean((2, 3)))

    class MixerLite(nn.Module):  # 4 images of 64x64 in 8x8 patches: 4 mixer layers, 64 tokens of width 96
        def __init__(self):
            super().__init__()
            self.patch = nn.Conv2d(3, 96, 8, 8)
            self.n1 = nn.ModuleList([nn.LayerNorm(96) for _ in range(4)])
            self.n2 = nn.ModuleList([nn.LayerNorm(96) for _ in range(4)])
            self.tok = nn.ModuleList([nn.Sequential(nn.Linear(64, 128), nn.GELU(), nn.Linear(128, 64)) for _ in range(4)])
            self.ch = nn.ModuleList([nn.Sequential(nn.Linear(96, 384), nn.GELU(), nn.Linear(384, 96)) for _ in range(4)])
            self.head = nn.Linear(96, 100)

        def forward(self, x):
            x = self.patch(x).flatten(2).transpose(1, 2)
            for k in range(4):
                x = x + self.tok[k](self.n1[k](x).transpose(1, 2)).transpose(1, 2)
                x = x + self.ch[k](self.n2[k](x))
            return self.head(x.mean(1))

    class DenseGat(nn.Module):  # 8 graphs of 64 nodes (dense adjacency as an input mask): 2 attention layers, 4 heads
        def __init__(self):
            super().__init__()
            self.w = nn.ModuleList([nn.Linear(32, 4 * 16, bias=False), nn.Linear(64, 4 * 16, bias=False)])
            self.a_src = nn.ParameterList([nn.Parameter(torch.randn(4, 16)) for _ in range(2)])
            self.a_dst = nn.ParameterList([nn.Parameter(torch.randn(4, 16)) for _ in range(2)])
            self.out = nn.Linear(64, 7)

        def forward(self, x):
            adj = (x[..., :1] @ x[..., :1].transpose(1, 2)) > 0
            b, n, _ = x.shape
            for k in range(2):
                h = self.w[k](x).view(b, n, 4, 16)
                s = (h * self.a_src[k]).sum(-1).transpose(1, 2)  # [b, 4, n]
                d = (h * self.a_dst[k]).sum(-1).transpose(1, 2)
                e = nn.functional.leaky_relu(s.unsqueeze(-1) + d.unsqueeze(-2), 0.2)
                e = e.masked_fill(~adj.unsqueeze(1), -1e9)
                x = nn.functional.elu((torch.softmax(e, -1) @ h.transpose(1, 2)).transpose(1, 2).reshape(b, n, 64))
            return self.out(x)

    class Tcn(nn.Module):  # 4 series of 256 steps, 32 channels: 4 dilated causal Conv1d residual blocks
        def __init__(self):
            super().__init__()
            self.inp = nn.Conv1d(8, 32, 1)
            self.c1 = nn.ModuleList([nn.Conv1d(32, 32, 3, dilation=2 ** k) for k in range(4)])
            self.c2 = nn.ModuleList([nn.Conv1d(32, 32, 3, dilation=2 ** k) for k in range(4)])
            self.out = nn.Conv1d(32, 1, 1)

        def forward(self, x):
            x = self.inp(x)
            for k in range(4):
                p = 2 * 2 ** k
                y = torch.relu(self.c1[k](nn.functional.pad(x, (p, 0))))
                y = torch.relu(self.c2[k](nn.functional.pad(y, (p, 0))))
                x = torch.relu(x + y)
            return self.out(x)

    class TabularMlp(nn.Module):  # 512 rows of 40 features: 3 Linear-BatchNorm-ReLU layers, 2 outputs
        def __init__(self):
            super().__init__()
            layers, c = [], 40
            for co in (256, 128, 64):
                layers += [nn.Linear(c, co), nn.BatchNorm1d(co), nn.ReLU()]
                c = co
            self.body = nn.Sequential(*layers, nn.Linear(64, 2))

        def forward(self, x):
            return self.body(x)

    export_nets(torch, out, 127, (("rms_swiglu_b2_t50", RmsSwiglu, (2, 50, 256)),
                                  ("convnext_lite_b2_64", ConvNextLite, (2, 3, 64, 64)),
                                  ("mixer_lite_b4_64", MixerLite, (4, 3, 64, 64)),
                                  ("dense_gat_b8_n64", DenseGat, (8, 64, 32)),
                                  ("tcn_b4_t256", Tcn, (4, 8, 256)),
                                  ("tabular_mlp_b512", TabularMlp, (512, 40))))
    return 0


def export_twenty_eighth_set(torch, out):
    nn = torch.nn

    class WideDeep(nn.Module):  # 256 rows: 4 id fields (embeddings of 16) and 12 dense features, one logit
        def __init__(self):
            super().__init__()
            self.emb = nn.ModuleList([nn.Embedding(v, 16) for v in (1000, 500, 200, 50)])
            self.wide = nn.Linear(12, 1)
            self.deep = nn.Sequential(nn.Linear(64 + 12, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 1))

        def forward(self, x):
            ids = [(x[:, k].abs() * v).long().clamp(0, v - 1) for k, v in enumerate((1000, 500, 200, 50))]
            dense = x[:, 4:]
            e = torch.cat([m(i) for m, i in zip(self.emb, ids)], 1)
            return torch.sigmoid(self.wide(dense) + self.deep(torch.cat([e, dense], 1)))

    class AttnPool(nn.Module):  # 32 sequences of 40 steps, width 96: GELU MLP, one score a step, softmax pooling
        def __init__(self):
            super().__init__()
            self.mlp = nn.Sequential(nn.Linear(24, 96), nn.GELU(), nn.Linear(96, 96), nn.GELU())
            self.score = nn.Linear(96, 1)
            self.head = nn.Linear(96, 5)

        def forward(self, x):
            h = self.mlp(x)
            a = torch.softmax(self.score(h).squeeze(-1), -1)
            return self.head((a.unsqueeze(-1) * h).sum(1))

    class PerceiverLite(nn.Module):  # 4 inputs of 128 tokens (width 64) read by 16 latents of 96, 2 layers
        def __init__(self):
            super().__init__()
            self.lat = nn.Parameter(torch.randn(16, 96))
            self.q = nn.ModuleList([nn.Linear(96, 96) for _ in range(2)])
            self.kv = nn.ModuleList([nn.Linear(64, 192) for _ in range(2)])
            self.n = nn.ModuleList([nn.LayerNorm(96) for _ in range(2)])
            self.mlp = nn.ModuleList([nn.Sequential(nn.Linear(96, 384), nn.GELU(), nn.Linear(384, 96)) for _ in range(2)])
            self.head = nn.Linear(96, 10)

        def forward(self, x):
            z = self.lat.unsqueeze(0).expand(x.shape[0], -1, -1)
            for k in range(2):
                q = self.q[k](z).view(-1, 16, 4, 24).transpose(1, 2)
                kk, v = self.kv[k](x).view(-1, 128, 2, 4, 24).permute(2, 0, 3, 1, 4)
                a = torch.softmax(q @ kk.transpose(-1, -2) / 24 ** 0.5, -1)
                z = z + (a @ v).transpose(1, 2).reshape(-1, 16, 96)
                z = z + self.mlp[k](self.n[k](z))
            return self.head(z.mean(1))

    class ValueMlp(nn.Module):  # 1024 states of 48: three Tanh layers and one value each
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(nn.Linear(48, 256), nn.Tanh(), nn.Linear(256, 256), nn.Tanh(),
                                      nn.Linear(256, 64), nn.Tanh(), nn.Linear(64, 1))

        def forward(self, x):
            return self.body(x)

    class GMlp(nn.Module):  # 4 sequences of 64 tokens, width 64: 3 gMLP blocks (spatial gating over tokens)
        def __init__(self):
            super().__init__()
            self.n = nn.ModuleList([nn.LayerNorm(64) for _ in range(3)])
            self.up = nn.ModuleList([nn.Linear(64, 256) for _ in range(3)])
            self.gn = nn.ModuleList([nn.LayerNorm(128) for _ in range(3)])
            self.sp = nn.ModuleList([nn.Linear(64, 64) for _ in range(3)])
            self.down = nn.ModuleList([nn.Linear(128, 64) for _ in range(3)])

        def forward(self, x):
            for k in range(3):
                u, v = nn.functional.gelu(self.up[k](self.n[k](x))).chunk(2, -1)
                v = self.sp[k](self.gn[k](v).transpose(1, 2)).transpose(1, 2)
                x = x + self.down[k](u * v)
            return x.mean(1)

    class ResMlp(nn.Module):  # 8 images of 32x32 in 4x4 patches (64 tokens of 128): 4 ResMLP blocks, affine norms
        def __init__(self):
            super().__init__()
            self.patch = nn.Conv2d(3, 128, 4, 4)
            self.a1 = nn.ParameterList([nn.Parameter(torch.ones(128)) for _ in range(4)])
            self.b1 = nn.ParameterList([nn.Parameter(torch.zeros(128)) for _ in range(4)])
            self.tok = nn.ModuleList([nn.Linear(64, 64) for _ in range(4)])
            self.a2 = nn.ParameterList([nn.Parameter(torch.ones(128)) for _ in range(4)])
            self.b2 = nn.ParameterList([nn.Parameter(torch.zeros(128)) for _ in range(4)])
            self.ch = nn.ModuleList([nn.Sequential(nn.Linear(128, 512), nn.GELU(), nn.Linear(512, 128)) for _ in range(4)])
            self.head = nn.Linear(128, 10)

        def forward(self, x):
            x = self.patch(x).flatten(2).transpose(1, 2)
            for k in range(4):
                x = x + self.tok[k]((self.a1[k] * x + self.b1[k]).transpose(1, 2)).transpose(1, 2)
                x = x + self.ch[k](self.a2[k] * x + self.b2[k])
            return self.head(x.mean(1))

    export_nets(torch, out, 128, (("wide_deep_b256", WideDeep, (256, 16)),
                                  ("attn_pool_b32_t40", AttnPool, (32, 40, 24)),
                                  ("perceiver_lite_b4", PerceiverLite, (4, 128, 64)),
                                  ("value_mlp_b1024", ValueMlp, (1024, 48)),
                                  ("gmlp_b4_t64", GMlp, (4, 64, 64)),
                                  ("resmlp_b8_32", ResMlp, (8, 3, 32, 32))))
    return 0


def export_twenty_ninth_set(torch, out):
    # Ids come from a float input: fwb's sample floats are uniform in [-1, 1], so |x| * V spreads them over
    # the whole table (x * V clamped at 0 sent half the picks to row 0, which stays in cache: session 31).
    nn = torch.nn

    class DlrmLite(nn.Module):  # 128 rows: 13 dense features, 8 id fields (tables of 1000-100000 rows of 32)
        sizes = (100000, 50000, 20000, 10000, 5000, 2000, 1000, 1000)

        def __init__(self):
            super().__init__()
            self.emb = nn.ModuleList([nn.Embedding(v, 32) for v in self.sizes])
            self.bottom = nn.Sequential(nn.Linear(13, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU())
            self.top = nn.Sequential(nn.Linear(32 + 36, 128), nn.ReLU(), nn.Linear(128, 1))

        def forward(self, x):
            d = self.bottom(x[:, 8:])
            ids = [(x[:, k].abs() * v).long().clamp(0, v - 1) for k, v in enumerate(self.sizes)]
            f = torch.stack([d] + [m(i) for m, i in zip(self.emb, ids)], 1)  # [B, 9, 32]
            z = f @ f.transpose(1, 2)
            iu = torch.triu_indices(9, 9, 1)
            return torch.sigmoid(self.top(torch.cat([d, z[:, iu[0], iu[1]]], 1)))

    class FastText(nn.Module):  # 64 documents of 200 tokens, a 50000-word vocabulary of 64: mean, 2 layers
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(50000, 64)
            self.fc = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 14))

        def forward(self, x):
            return self.fc(self.emb((x.abs() * 50000).long().clamp(0, 49999)).mean(1))

    class DistilEnc(nn.Module):  # 2 sequences of 64 tokens, 30522 words of 256: 2 post-norm GELU layers
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(30522, 256)
            self.pos = nn.Embedding(64, 256)
            self.n0 = nn.LayerNorm(256)
            layer = nn.TransformerEncoderLayer(256, 4, 1024, 0.0, activation="gelu", batch_first=True)
            self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
            self.cls = nn.Linear(256, 3)

        def forward(self, x):
            ids = (x.abs() * 30522).long().clamp(0, 30521)
            h = self.n0(self.emb(ids) + self.pos(torch.arange(64).unsqueeze(0)))
            return self.cls(self.enc(h)[:, 0])

    class BiLstmTagger(nn.Module):  # 8 sentences of 48 words, 20000 words of 128, a BiLSTM of 128, 9 tags
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(20000, 128)
            self.rnn = nn.LSTM(128, 128, batch_first=True, bidirectional=True)
            self.out = nn.Linear(256, 9)

        def forward(self, x):
            h, _ = self.rnn(self.emb((x.abs() * 20000).long().clamp(0, 19999)))
            return self.out(h)

    class DsCnnKws(nn.Module):  # 16 clips of 49 x 10 MFCCs: a 10x4 stem, 4 depthwise-separable blocks of 64
        def __init__(self):
            super().__init__()
            layers = [nn.Conv2d(1, 64, (10, 4), (2, 2), (5, 1)), nn.BatchNorm2d(64), nn.ReLU()]
            for _ in range(4):
                layers += [nn.Conv2d(64, 64, 3, 1, 1, groups=64), nn.BatchNorm2d(64), nn.ReLU(),
                           nn.Conv2d(64, 64, 1), nn.BatchNorm2d(64), nn.ReLU()]
            self.body = nn.Sequential(*layers)
            self.fc = nn.Linear(64, 12)

        def forward(self, x):
            return self.fc(self.body(x).mean((2, 3)))

    class VitSmall(nn.Module):  # 1 image of 96x96 in 16x16 patches (36 tokens + class) of 384, 4 layers, 6 heads
        def __init__(self):
            super().__init__()
            self.patch = nn.Conv2d(3, 384, 16, 16)
            self.cls = nn.Parameter(torch.zeros(1, 1, 384))
            self.pos = nn.Parameter(torch.randn(1, 37, 384) * 0.02)
            layer = nn.TransformerEncoderLayer(384, 6, 1536, 0.0, activation="gelu", batch_first=True, norm_first=True)
            self.enc = nn.TransformerEncoder(layer, 4, enable_nested_tensor=False)
            self.head = nn.Linear(384, 100)

        def forward(self, x):
            t = self.patch(x).flatten(2).transpose(1, 2)
            t = torch.cat([self.cls.expand(x.shape[0], -1, -1), t], 1) + self.pos
            return self.head(self.enc(t)[:, 0])

    export_nets(torch, out, 129, (("dlrm_lite_b128", DlrmLite, (128, 21)),
                                  ("fasttext_b64_t200", FastText, (64, 200)),
                                  ("distil_enc_t64", DistilEnc, (2, 64)),
                                  ("bilstm_tagger_b8_t48", BiLstmTagger, (8, 48)),
                                  ("dscnn_kws_b16", DsCnnKws, (16, 1, 49, 10)),
                                  ("vit_small_b1_96", VitSmall, (1, 3, 96, 96))))
    return 0


def export_thirtieth_set(torch, out):
    # Ids from a float input as in set 29: |x| * V over the whole table.
    nn = torch.nn
    F = torch.nn.functional

    class MbConv(nn.Module):
        def __init__(self, c, e, stride):
            super().__init__()
            h = c * e
            self.expand = nn.Sequential(nn.Conv2d(c, h, 1, bias=False), nn.BatchNorm2d(h), nn.SiLU())
            self.dw = nn.Sequential(nn.Conv2d(h, h, 3, stride, 1, groups=h, bias=False), nn.BatchNorm2d(h), nn.SiLU())
            self.se = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(h, h // 4, 1), nn.SiLU(), nn.Conv2d(h // 4, h, 1),
                                    nn.Sigmoid())
            self.project = nn.Sequential(nn.Conv2d(h, c, 1, bias=False), nn.BatchNorm2d(c))
            self.skip = stride == 1

        def forward(self, x):
            h = self.dw(self.expand(x))
            h = self.project(h * self.se(h))
            return x + h if self.skip else h

    class EfficientLite(nn.Module):  # 4 images of 96x96: a stem, 5 MBConv blocks of 32 (expand 4), a head
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1, bias=False), nn.BatchNorm2d(32), nn.SiLU())
            self.blocks = nn.Sequential(MbConv(32, 4, 1), MbConv(32, 4, 2), MbConv(32, 4, 1), MbConv(32, 4, 2),
                                        MbConv(32, 4, 1))
            self.head = nn.Sequential(nn.Conv2d(32, 256, 1), nn.SiLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                                      nn.Linear(256, 10))

        def forward(self, x):
            return self.head(self.blocks(self.stem(x)))

    class GruEncoder(nn.Module):  # 16 texts of 40 words, 8000 words of 96, a 2-layer GRU of 128, mean, 5 classes
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(8000, 96)
            self.rnn = nn.GRU(96, 128, 2, batch_first=True)
            self.out = nn.Linear(128, 5)

        def forward(self, x):
            h, _ = self.rnn(self.emb((x.abs() * 8000).long().clamp(0, 7999)))
            return self.out(h.mean(1))

    class RmsNorm(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.w = nn.Parameter(torch.ones(d) + 0.1 * torch.randn(d))

        def forward(self, x):
            return self.w * x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)

    class T5Layer(nn.Module):
        def __init__(self, d, heads, ff):
            super().__init__()
            self.h = heads
            self.n1, self.n2 = RmsNorm(d), RmsNorm(d)
            self.q, self.k, self.v, self.o = (nn.Linear(d, d, bias=False) for _ in range(4))
            self.wi, self.wo = nn.Linear(d, ff, bias=False), nn.Linear(ff, d, bias=False)

        def forward(self, x):
            b, t, d = x.shape
            y = self.n1(x)
            q, k, v = (m(y).view(b, t, self.h, d // self.h).transpose(1, 2) for m in (self.q, self.k, self.v))
            a = torch.softmax(q @ k.transpose(-1, -2), -1) @ v
            x = x + self.o(a.transpose(1, 2).reshape(b, t, d))
            return x + self.wo(F.relu(self.wi(self.n2(x))))

    class T5Encoder(nn.Module):  # 2 sequences of 48 tokens of 256 (ids from 12000 words), 4 layers, 4 heads
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(12000, 256)
            self.layers = nn.ModuleList([T5Layer(256, 4, 1024) for _ in range(4)])
            self.norm = RmsNorm(256)

        def forward(self, x):
            h = self.emb((x.abs() * 12000).long().clamp(0, 11999))
            for layer in self.layers:
                h = layer(h)
            return self.norm(h)

    class Conv1dAe(nn.Module):  # 8 signals of 2 x 1024: strided Conv1d down to 64 positions, ConvTranspose1d up
        def __init__(self):
            super().__init__()
            self.enc = nn.Sequential(nn.Conv1d(2, 32, 7, 2, 3), nn.ReLU(), nn.Conv1d(32, 64, 5, 2, 2), nn.ReLU(),
                                     nn.Conv1d(64, 64, 5, 2, 2), nn.ReLU(), nn.Conv1d(64, 128, 3, 2, 1), nn.ReLU())
            self.dec = nn.Sequential(nn.ConvTranspose1d(128, 64, 4, 2, 1), nn.ReLU(),
                                     nn.ConvTranspose1d(64, 64, 4, 2, 1), nn.ReLU(),
                                     nn.ConvTranspose1d(64, 32, 4, 2, 1), nn.ReLU(), nn.ConvTranspose1d(32, 2, 4, 2, 1))

        def forward(self, x):
            return torch.tanh(self.dec(self.enc(x)))

    class WindowBlock(nn.Module):
        def __init__(self, d, heads, win):
            super().__init__()
            self.d, self.h, self.w = d, heads, win
            self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

        def forward(self, x):  # x: [B, H, W, C]
            b, hh, ww, c = x.shape
            w = self.w
            y = self.n1(x).view(b, hh // w, w, ww // w, w, c).permute(0, 1, 3, 2, 4, 5).reshape(-1, w * w, c)
            q, k, v = self.qkv(y).view(-1, w * w, 3, self.h, c // self.h).permute(2, 0, 3, 1, 4)
            a = torch.softmax(q @ k.transpose(-1, -2) * (c // self.h) ** -0.5, -1) @ v
            y = self.proj(a.transpose(1, 2).reshape(-1, w * w, c))
            y = y.view(b, hh // w, ww // w, w, w, c).permute(0, 1, 3, 2, 4, 5).reshape(b, hh, ww, c)
            x = x + y
            return x + self.mlp(self.n2(x))

    class WindowNet(nn.Module):  # 2 images of 112x112: 4x4 patches of 64, 2 blocks of 7x7-window attention
        def __init__(self):
            super().__init__()
            self.patch = nn.Conv2d(3, 64, 4, 4)
            self.blocks = nn.Sequential(WindowBlock(64, 2, 7), WindowBlock(64, 2, 7))
            self.head = nn.Linear(64, 20)

        def forward(self, x):
            h = self.blocks(self.patch(x).permute(0, 2, 3, 1))
            return self.head(h.mean((1, 2)))

    class Ncf(nn.Module):  # 512 (user, item) pairs: tables of 6040 and 3706 rows, GMF of 32 beside an MLP of 64
        def __init__(self):
            super().__init__()
            self.ug, self.ig = nn.Embedding(6040, 32), nn.Embedding(3706, 32)
            self.um, self.im = nn.Embedding(6040, 64), nn.Embedding(3706, 64)
            self.mlp = nn.Sequential(nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 32),
                                     nn.ReLU())
            self.out = nn.Linear(64, 1)

        def forward(self, x):
            u = (x[:, 0].abs() * 6040).long().clamp(0, 6039)
            i = (x[:, 1].abs() * 3706).long().clamp(0, 3705)
            g = self.ug(u) * self.ig(i)
            m = self.mlp(torch.cat([self.um(u), self.im(i)], 1))
            return torch.sigmoid(self.out(torch.cat([g, m], 1)))

    export_nets(torch, out, 130, (("efficient_lite_b4_96", EfficientLite, (4, 3, 96, 96)),
                                  ("gru_encoder_b16_t40", GruEncoder, (16, 40)),
                                  ("t5_encoder_t48", T5Encoder, (2, 48)),
                                  ("conv1d_ae_b8_1024", Conv1dAe, (8, 2, 1024)),
                                  ("window_attn_b2_112", WindowNet, (2, 3, 112, 112)),
                                  ("ncf_b512", Ncf, (512, 2))))
    return 0


def export_thirty_first_set(torch, out):
    # Session 32: exported after the calibration merge, measured only.
    nn = torch.nn
    F = torch.nn.functional

    class PointNet(nn.Module):  # 8 clouds of 1024 points: a shared MLP (1x1 Conv1d) 3-64-128-512, max, 3 FCs
        def __init__(self):
            super().__init__()
            self.feat = nn.Sequential(nn.Conv1d(3, 64, 1), nn.BatchNorm1d(64), nn.ReLU(), nn.Conv1d(64, 128, 1),
                                      nn.BatchNorm1d(128), nn.ReLU(), nn.Conv1d(128, 512, 1), nn.BatchNorm1d(512))
            self.head = nn.Sequential(nn.Linear(512, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(),
                                      nn.Linear(128, 16))

        def forward(self, x):
            return self.head(self.feat(x).max(2)[0])

    class TcnBlock(nn.Module):
        def __init__(self, c, dilation):
            super().__init__()
            self.pad = 2 * dilation
            self.c1 = nn.Conv1d(c, c, 3, dilation=dilation)
            self.c2 = nn.Conv1d(c, c, 3, dilation=dilation)

        def forward(self, x):
            h = F.relu(self.c1(F.pad(x, (self.pad, 0))))
            h = F.relu(self.c2(F.pad(h, (self.pad, 0))))
            return F.relu(x + h)

    class Tcn(nn.Module):  # 4 series of 512 steps of 8 features: causal dilated Conv1d blocks of 64, d = 1..16
        def __init__(self):
            super().__init__()
            self.inp = nn.Conv1d(8, 64, 1)
            self.blocks = nn.Sequential(*[TcnBlock(64, d) for d in (1, 2, 4, 8, 16)])
            self.out = nn.Conv1d(64, 1, 1)

        def forward(self, x):
            return self.out(self.blocks(self.inp(x)))

    class MixerBlock(nn.Module):
        def __init__(self, tokens, d):
            super().__init__()
            self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.tok = nn.Sequential(nn.Linear(tokens, 2 * tokens), nn.GELU(), nn.Linear(2 * tokens, tokens))
            self.ch = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

        def forward(self, x):  # [B, T, D]
            x = x + self.tok(self.n1(x).transpose(1, 2)).transpose(1, 2)
            return x + self.ch(self.n2(x))

    class Mixer(nn.Module):  # 4 images of 64x64, 8x8 patches (64 tokens) of 128, 4 mixer blocks
        def __init__(self):
            super().__init__()
            self.patch = nn.Conv2d(3, 128, 8, 8)
            self.blocks = nn.Sequential(*[MixerBlock(64, 128) for _ in range(4)])
            self.norm = nn.LayerNorm(128)
            self.head = nn.Linear(128, 100)

        def forward(self, x):
            h = self.patch(x).flatten(2).transpose(1, 2)
            return self.head(self.norm(self.blocks(h)).mean(1))

    class GptBlock(nn.Module):
        def __init__(self, d, heads):
            super().__init__()
            self.h = heads
            self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.attn, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.fc, self.out = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

        def forward(self, x, mask):
            b, t, d = x.shape
            q, k, v = self.attn(self.n1(x)).split(d, 2)
            q, k, v = (z.view(b, t, self.h, d // self.h).transpose(1, 2) for z in (q, k, v))
            s = (q @ k.transpose(-1, -2)) * (d // self.h) ** -0.5
            a = torch.softmax(s.masked_fill(mask, float("-inf")), -1) @ v
            x = x + self.proj(a.transpose(1, 2).reshape(b, t, d))
            return x + self.out(F.gelu(self.fc(self.n2(x)), approximate="tanh"))

    class GptMini(nn.Module):  # 1 sequence of 96 tokens (5000 words) of 192, learned positions, 3 blocks, 6 heads
        def __init__(self):
            super().__init__()
            self.wte, self.wpe = nn.Embedding(5000, 192), nn.Embedding(96, 192)
            self.blocks = nn.ModuleList([GptBlock(192, 6) for _ in range(3)])
            self.norm = nn.LayerNorm(192)
            self.register_buffer("mask", torch.triu(torch.ones(96, 96, dtype=torch.bool), 1))

        def forward(self, x):
            ids = (x.abs() * 5000).long().clamp(0, 4999)
            h = self.wte(ids) + self.wpe(torch.arange(ids.shape[1]))
            for blk in self.blocks:
                h = blk(h, self.mask)
            return self.norm(h) @ self.wte.weight.t()

    class Basic(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.c1, self.b1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout)
            self.c2, self.b2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout)
            self.sc = (nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
                       if stride != 1 or cin != cout else nn.Identity())

        def forward(self, x):
            return F.relu(self.b2(self.c2(F.relu(self.b1(self.c1(x))))) + self.sc(x))

    class ResNetCifar(nn.Module):  # 16 images of 32x32: ResNet-20-style, stages of 16, 32, 64 (3 blocks each)
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 1, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU())
            layers, c = [], 16
            for cout, stride in ((16, 1), (32, 2), (64, 2)):
                for i in range(3):
                    layers.append(Basic(c, cout, stride if i == 0 else 1))
                    c = cout
            self.layers = nn.Sequential(*layers)
            self.fc = nn.Linear(64, 10)

        def forward(self, x):
            return self.fc(F.adaptive_avg_pool2d(self.layers(self.stem(x)), 1).flatten(1))

    class TabAe(nn.Module):  # 256 rows of 120 features: a denoising MLP autoencoder 120-512-256-64-256-512-120
        def __init__(self):
            super().__init__()
            dims = (120, 512, 256, 64, 256, 512)
            layers = []
            for a, b in zip(dims, dims[1:]):
                layers += [nn.Linear(a, b), nn.BatchNorm1d(b), nn.SiLU()]
            self.body = nn.Sequential(*layers)
            self.out = nn.Linear(512, 120)

        def forward(self, x):
            return self.out(self.body(x))

    export_nets(torch, out, 131, (("pointnet_b8_1024", PointNet, (8, 3, 1024)),
                                  ("tcn_b4_512", Tcn, (4, 8, 512)),
                                  ("mlp_mixer_b4_64", Mixer, (4, 3, 64, 64)),
                                  ("gpt_mini_t96", GptMini, (1, 96)),
                                  ("resnet20_cifar_b16", ResNetCifar, (16, 3, 32, 32)),
                                  ("tab_ae_b256", TabAe, (256, 120))))
    return 0


def export_thirty_second_set(torch, out):
    # Session 33: exported after session 32's last change, measured only.
    nn = torch.nn
    F = torch.nn.functional

    class DenseLayer(nn.Module):
        def __init__(self, cin, growth):
            super().__init__()
            self.b1, self.c1 = nn.BatchNorm2d(cin), nn.Conv2d(cin, 4 * growth, 1, bias=False)
            self.b2, self.c2 = nn.BatchNorm2d(4 * growth), nn.Conv2d(4 * growth, growth, 3, 1, 1, bias=False)

        def forward(self, x):
            return torch.cat([x, self.c2(F.relu(self.b2(self.c1(F.relu(self.b1(x))))))], 1)

    class DenseNet(nn.Module):  # 16 images of 32x32: DenseNet-BC, growth 12, 3 blocks of 6 layers, halving transitions
        def __init__(self):
            super().__init__()
            layers, c = [nn.Conv2d(3, 24, 3, 1, 1, bias=False)], 24
            for block in range(3):
                for _ in range(6):
                    layers.append(DenseLayer(c, 12))
                    c += 12
                if block < 2:
                    layers += [nn.BatchNorm2d(c), nn.ReLU(), nn.Conv2d(c, c // 2, 1, bias=False), nn.AvgPool2d(2)]
                    c //= 2
            self.body = nn.Sequential(*layers, nn.BatchNorm2d(c), nn.ReLU())
            self.fc = nn.Linear(c, 10)

        def forward(self, x):
            return self.fc(self.body(x).mean((2, 3)))

    class ConformerBlock(nn.Module):
        def __init__(self, d, heads, kernel):
            super().__init__()
            self.ff1 = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.SiLU(), nn.Linear(4 * d, d))
            self.ff2 = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.SiLU(), nn.Linear(4 * d, d))
            self.na, self.nc, self.nf = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)
            self.h = heads
            self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.pw1, self.pw2 = nn.Conv1d(d, 2 * d, 1), nn.Conv1d(d, d, 1)
            self.dw, self.bn = nn.Conv1d(d, d, kernel, padding=kernel // 2, groups=d), nn.BatchNorm1d(d)

        def forward(self, x):  # [B, T, D]
            b, t, d = x.shape
            x = x + 0.5 * self.ff1(x)
            q, k, v = self.qkv(self.na(x)).view(b, t, 3, self.h, d // self.h).permute(2, 0, 3, 1, 4)
            a = torch.softmax(q @ k.transpose(-1, -2) * (d // self.h) ** -0.5, -1) @ v
            x = x + self.proj(a.transpose(1, 2).reshape(b, t, d))
            c = F.glu(self.pw1(self.nc(x).transpose(1, 2)), 1)
            x = x + self.pw2(F.silu(self.bn(self.dw(c)))).transpose(1, 2)
            return self.nf(x + 0.5 * self.ff2(x))

    class Conformer(nn.Module):  # 2 utterances of 100 frames of 80 features: 2 blocks of 144, 4 heads, kernel 15
        def __init__(self):
            super().__init__()
            self.inp = nn.Linear(80, 144)
            self.blocks = nn.Sequential(ConformerBlock(144, 4, 15), ConformerBlock(144, 4, 15))
            self.out = nn.Linear(144, 32)

        def forward(self, x):
            return self.out(self.blocks(self.inp(x)))

    class LstmLm(nn.Module):  # 4 sequences of 64 tokens (4000 words): 2-layer LSTM of 256, output tied to the embedding
        def __init__(self):
            super().__init__()
            self.e = nn.Embedding(4000, 256)
            self.rnn = nn.LSTM(256, 256, num_layers=2, batch_first=True)

        def forward(self, x):
            ids = (x.abs() * 4000).long().clamp(0, 3999)
            h, _ = self.rnn(self.e(ids))
            return h @ self.e.weight.t()

    def cbr(cin, cout, stride):
        return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU())

    class Fpn(nn.Module):  # 2 images of 128x128: 4 strided stages (32-256), a 96-channel pyramid, nearest upsampling
        def __init__(self):
            super().__init__()
            self.stem = cbr(3, 32, 2)
            self.stages = nn.ModuleList([nn.Sequential(cbr(a, b, 2), cbr(b, b, 1))
                                         for a, b in ((32, 64), (64, 128), (128, 192), (192, 256))])
            self.lat = nn.ModuleList([nn.Conv2d(c, 96, 1) for c in (64, 128, 192, 256)])
            self.smooth = nn.ModuleList([nn.Conv2d(96, 96, 3, 1, 1) for _ in range(4)])
            self.head = nn.Conv2d(96, 9, 3, 1, 1)

        def forward(self, x):
            feats, h = [], self.stem(x)
            for s in self.stages:
                h = s(h)
                feats.append(h)
            p = self.lat[3](feats[3])
            outs = [self.smooth[3](p)]
            for i in (2, 1, 0):
                p = self.lat[i](feats[i]) + F.interpolate(p, scale_factor=2.0, mode="nearest")
                outs.append(self.smooth[i](p))
            return torch.cat([self.head(o).flatten(2) for o in outs], 2)

    class Seq2Seq(nn.Module):  # 2 pairs: a 32-step source and 24-step target of 128, 2+2 layers, 4 heads, causal target
        def __init__(self):
            super().__init__()
            self.t = nn.Transformer(128, 4, 2, 2, 256, dropout=0.0, batch_first=True)
            self.register_buffer("mask", torch.triu(torch.full((24, 24), float("-inf")), 1))
            self.out = nn.Linear(128, 500)

        def forward(self, x):
            return self.out(self.t(x, x[:, :24] * 0.5, tgt_mask=self.mask))

    class Bottleneck(nn.Module):
        def __init__(self, cin, width, cout, stride, groups):
            super().__init__()
            self.body = nn.Sequential(nn.Conv2d(cin, width, 1, bias=False), nn.BatchNorm2d(width), nn.ReLU(),
                                      nn.Conv2d(width, width, 3, stride, 1, groups=groups, bias=False),
                                      nn.BatchNorm2d(width), nn.ReLU(), nn.Conv2d(width, cout, 1, bias=False),
                                      nn.BatchNorm2d(cout))
            self.sc = (nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
                       if stride != 1 or cin != cout else nn.Identity())

        def forward(self, x):
            return F.relu(self.body(x) + self.sc(x))

    class ResNeXt(nn.Module):  # 8 images of 64x64: 3 stages of 2 bottlenecks, 8 groups, widths 64-256
        def __init__(self):
            super().__init__()
            self.stem = cbr(3, 32, 1)
            blocks, c = [], 32
            for width, cout, stride in ((64, 128, 1), (128, 256, 2), (256, 512, 2)):
                blocks += [Bottleneck(c, width, cout, stride, 8), Bottleneck(cout, width, cout, 1, 8)]
                c = cout
            self.blocks = nn.Sequential(*blocks)
            self.fc = nn.Linear(512, 50)

        def forward(self, x):
            return self.fc(self.blocks(self.stem(x)).mean((2, 3)))

    export_nets(torch, out, 132, (("densenet_bc_b16_32", DenseNet, (16, 3, 32, 32)),
                                  ("conformer_b2_t100", Conformer, (2, 100, 80)),
                                  ("lstm_lm_b4_t64", LstmLm, (4, 64)),
                                  ("fpn_b2_128", Fpn, (2, 3, 128, 128)),
                                  ("seq2seq_tfm_b2_t32", Seq2Seq, (2, 32, 128)),
                                  ("resnext_lite_b8_64", ResNeXt, (8, 3, 64, 64))))
    return 0


def export_thirty_third_set(torch, out):
    # Session 33: exported after that session's cost-model and executor changes, measured only.
    nn = torch.nn
    F = torch.nn.functional

    def cbr(cin, cout, k=3, stride=1, groups=1, act=True):
        layers = [nn.Conv2d(cin, cout, k, stride, k // 2, groups=groups, bias=False), nn.BatchNorm2d(cout)]
        return nn.Sequential(*layers, nn.SiLU()) if act else nn.Sequential(*layers)

    class MvitBlock(nn.Module):  # local 3x3 conv, 2x2 patches unfolded into tokens, a transformer, folded back
        def __init__(self, c, d):
            super().__init__()
            self.local, self.proj_in = cbr(c, c), nn.Conv2d(c, d, 1, bias=False)
            self.enc = nn.TransformerEncoderLayer(d, 4, 2 * d, dropout=0.0, activation="gelu", batch_first=True)
            self.proj_out, self.fuse = cbr(d, c, 1), cbr(2 * c, c)

        def forward(self, x):
            b, c, h, w = x.shape
            y = self.proj_in(self.local(x))
            d = y.shape[1]
            t = y.view(b, d, h // 2, 2, w // 2, 2).permute(0, 3, 5, 2, 4, 1).reshape(b * 4, h * w // 4, d)
            t = self.enc(t)
            y = t.view(b, 2, 2, h // 2, w // 2, d).permute(0, 5, 3, 1, 4, 2).reshape(b, d, h, w)
            return self.fuse(torch.cat([x, self.proj_out(y)], 1))

    class MobileVit(nn.Module):  # 4 images of 64x64: conv stem, two MobileViT blocks at 16x16 and 8x8
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(cbr(3, 16, stride=2), cbr(16, 32, stride=2))
            self.b1 = MvitBlock(32, 64)
            self.down = cbr(32, 48, stride=2)
            self.b2 = MvitBlock(48, 80)
            self.head = nn.Linear(48, 10)

        def forward(self, x):
            return self.head(self.b2(self.down(self.b1(self.stem(x)))).mean((2, 3)))

    class Ghost(nn.Module):  # half the channels by a 1x1 conv, the other half by a cheap depthwise conv of those
        def __init__(self, cin, cout, act=True):
            super().__init__()
            self.primary = cbr(cin, cout // 2, 1, act=act)
            self.cheap = cbr(cout // 2, cout // 2, 3, groups=cout // 2, act=act)

        def forward(self, x):
            y = self.primary(x)
            return torch.cat([y, self.cheap(y)], 1)

    class GhostBottleneck(nn.Module):
        def __init__(self, cin, mid, cout, stride):
            super().__init__()
            self.g1, self.g2 = Ghost(cin, mid), Ghost(mid, cout, act=False)
            self.dw = cbr(mid, mid, 3, stride, groups=mid, act=False) if stride > 1 else nn.Identity()
            self.sc = (nn.Sequential(cbr(cin, cin, 3, stride, groups=cin, act=False), cbr(cin, cout, 1, act=False))
                       if stride > 1 or cin != cout else nn.Identity())

        def forward(self, x):
            return self.g2(self.dw(self.g1(x))) + self.sc(x)

    class GhostNet(nn.Module):  # 8 images of 64x64: five ghost bottlenecks, 16 to 80 channels
        def __init__(self):
            super().__init__()
            self.stem = cbr(3, 16, stride=2)
            self.body = nn.Sequential(GhostBottleneck(16, 32, 16, 1), GhostBottleneck(16, 48, 24, 2),
                                      GhostBottleneck(24, 72, 24, 1), GhostBottleneck(24, 96, 40, 2),
                                      GhostBottleneck(40, 160, 80, 2))
            self.fc = nn.Linear(80, 100)

        def forward(self, x):
            return self.fc(self.body(self.stem(x)).mean((2, 3)))

    class DeepFm(nn.Module):  # 256 rows of 12 sparse fields (tables of 2000 rows, 16 wide) and 8 dense features
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(12 * 2000, 16)
            self.lin = nn.Embedding(12 * 2000, 1)
            self.register_buffer("offsets", torch.arange(12) * 2000)
            self.dense = nn.Linear(8, 16)
            self.mlp = nn.Sequential(nn.Linear(13 * 16, 200), nn.ReLU(), nn.Linear(200, 200), nn.ReLU(),
                                     nn.Linear(200, 1))

        def forward(self, x):  # x [256, 20]: 12 fields as fractions, 8 dense features
            ids = (x[:, :12].abs() * 2000).long().clamp(0, 1999) + self.offsets
            e = torch.cat([self.emb(ids), self.dense(x[:, 12:]).unsqueeze(1)], 1)  # [256, 13, 16]
            fm = 0.5 * (e.sum(1).pow(2) - e.pow(2).sum(1)).sum(1, keepdim=True)
            return torch.sigmoid(self.lin(ids).sum(1) + fm + self.mlp(e.flatten(1)))

    class Residual(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.body = nn.Sequential(nn.BatchNorm2d(c), nn.ReLU(), nn.Conv2d(c, c // 2, 1), nn.BatchNorm2d(c // 2),
                                      nn.ReLU(), nn.Conv2d(c // 2, c // 2, 3, 1, 1), nn.BatchNorm2d(c // 2), nn.ReLU(),
                                      nn.Conv2d(c // 2, c, 1))

        def forward(self, x):
            return x + self.body(x)

    class Hourglass(nn.Module):  # recursive: skip branch, max-pool, inner hourglass, nearest upsampling, add
        def __init__(self, depth, c):
            super().__init__()
            self.up1, self.low1, self.low3 = Residual(c), Residual(c), Residual(c)
            self.low2 = Hourglass(depth - 1, c) if depth > 1 else Residual(c)

        def forward(self, x):
            low = self.low3(self.low2(self.low1(F.max_pool2d(x, 2))))
            return self.up1(x) + F.interpolate(low, scale_factor=2.0, mode="nearest")

    class PoseNet(nn.Module):  # 2 images of 128x128: a stem to 32x32 of 128, a 3-level hourglass, 16 heatmaps
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 64, 7, 2, 3), nn.BatchNorm2d(64), nn.ReLU(), Residual(64),
                                      nn.MaxPool2d(2), nn.Conv2d(64, 128, 1), Residual(128))
            self.hg = Hourglass(3, 128)
            self.out = nn.Conv2d(128, 16, 1)

        def forward(self, x):
            return self.out(self.hg(self.stem(x)))

    class SeBottleneck(nn.Module):
        def __init__(self, cin, width, cout, stride):
            super().__init__()
            self.body = nn.Sequential(nn.Conv2d(cin, width, 1, bias=False), nn.BatchNorm2d(width), nn.ReLU(),
                                      nn.Conv2d(width, width, 3, stride, 1, bias=False), nn.BatchNorm2d(width),
                                      nn.ReLU(), nn.Conv2d(width, cout, 1, bias=False), nn.BatchNorm2d(cout))
            self.se = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(cout, cout // 16, 1), nn.ReLU(),
                                    nn.Conv2d(cout // 16, cout, 1), nn.Sigmoid())
            self.sc = (nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
                       if stride != 1 or cin != cout else nn.Identity())

        def forward(self, x):
            y = self.body(x)
            return F.relu(y * self.se(y) + self.sc(x))

    class SeResNet(nn.Module):  # 8 images of 64x64: 4 stages (one bottleneck each, strided 1x1 shortcuts)
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 64, 3, 1, 1, bias=False), nn.BatchNorm2d(64), nn.ReLU())
            self.stages = nn.Sequential(SeBottleneck(64, 32, 128, 1), SeBottleneck(128, 64, 256, 2),
                                        SeBottleneck(256, 128, 512, 2), SeBottleneck(512, 256, 1024, 2))
            self.fc = nn.Linear(1024, 200)

        def forward(self, x):
            return self.fc(self.stages(self.stem(x)).mean((2, 3)))

    class ConvLstm(nn.Module):  # 2 clips of 8 frames of 32x32x4: a ConvLSTM cell of 32 channels, unrolled
        def __init__(self):
            super().__init__()
            self.gates = nn.Conv2d(4 + 32, 4 * 32, 3, 1, 1)
            self.out = nn.Conv2d(32, 4, 1)

        def forward(self, x):  # [2, 8, 4, 32, 32]
            b, t = x.shape[:2]
            h = torch.zeros(b, 32, 32, 32)
            c = torch.zeros(b, 32, 32, 32)
            for k in range(t):
                i, f, o, g = self.gates(torch.cat([x[:, k], h], 1)).chunk(4, 1)
                c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
                h = torch.sigmoid(o) * torch.tanh(c)
            return self.out(h)

    export_nets(torch, out, 133, (("mobilevit_lite_b4_64", MobileVit, (4, 3, 64, 64)),
                                  ("ghostnet_lite_b8_64", GhostNet, (8, 3, 64, 64)),
                                  ("deepfm_b256", DeepFm, (256, 20)),
                                  ("hourglass_pose_b2_128", PoseNet, (2, 3, 128, 128)),
                                  ("se_resnet_b8_64", SeResNet, (8, 3, 64, 64)),
                                  ("convlstm_b2_t8_32", ConvLstm, (2, 8, 4, 32, 32))))
    return 0


def export_thirty_fourth_set(torch, out):
    # Session 33, at its end: exported after its last change, measured only.
    nn = torch.nn
    F = torch.nn.functional

    class WaveBlock(nn.Module):
        def __init__(self, c, dilation):
            super().__init__()
            self.d = dilation
            self.filt, self.gate = nn.Conv1d(c, c, 2, dilation=dilation), nn.Conv1d(c, c, 2, dilation=dilation)
            self.res, self.skip = nn.Conv1d(c, c, 1), nn.Conv1d(c, 64, 1)

        def forward(self, x):
            h = F.pad(x, (self.d, 0))
            z = torch.tanh(self.filt(h)) * torch.sigmoid(self.gate(h))
            return x + self.res(z), self.skip(z)

    class WaveNet(nn.Module):  # 1 signal of 4000 samples: 2 stacks of dilations 1-64 over 32 channels
        def __init__(self):
            super().__init__()
            self.inp = nn.Conv1d(1, 32, 1)
            self.blocks = nn.ModuleList([WaveBlock(32, 2 ** k) for _ in range(2) for k in range(7)])
            self.out = nn.Sequential(nn.ReLU(), nn.Conv1d(64, 64, 1), nn.ReLU(), nn.Conv1d(64, 256, 1))

        def forward(self, x):
            h, skips = self.inp(x), 0
            for b in self.blocks:
                h, s = b(h)
                skips = skips + s
            return self.out(skips)

    class Espcn(nn.Module):  # 2 images of 64x64: 5x5 and 3x3 convs, then 3x3 to 3*16 channels and a 4x PixelShuffle
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(nn.Conv2d(3, 64, 5, 1, 2), nn.Tanh(), nn.Conv2d(64, 32, 3, 1, 1), nn.Tanh(),
                                      nn.Conv2d(32, 3 * 16, 3, 1, 1))

        def forward(self, x):
            return torch.sigmoid(F.pixel_shuffle(self.body(x), 4))

    def double(cin, cout):
        return nn.Sequential(nn.Conv2d(cin, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(),
                             nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU())

    class Gate(nn.Module):  # attention gate: the skip weighted by sigmoid(psi(relu(Wx skip + Wg up)))
        def __init__(self, c):
            super().__init__()
            self.wx, self.wg, self.psi = nn.Conv2d(c, c // 2, 1), nn.Conv2d(c, c // 2, 1), nn.Conv2d(c // 2, 1, 1)

        def forward(self, skip, g):
            return skip * torch.sigmoid(self.psi(F.relu(self.wx(skip) + self.wg(g))))

    class AttnUnet(nn.Module):  # 2 images of 64x64: 3 levels (32, 64, 128), ConvTranspose up, gated skips
        def __init__(self):
            super().__init__()
            self.e1, self.e2, self.mid = double(3, 32), double(32, 64), double(64, 128)
            self.u2, self.g2, self.d2 = nn.ConvTranspose2d(128, 64, 2, 2), Gate(64), double(128, 64)
            self.u1, self.g1, self.d1 = nn.ConvTranspose2d(64, 32, 2, 2), Gate(32), double(64, 32)
            self.out = nn.Conv2d(32, 4, 1)

        def forward(self, x):
            s1 = self.e1(x)
            s2 = self.e2(F.max_pool2d(s1, 2))
            m = self.mid(F.max_pool2d(s2, 2))
            u = self.u2(m)
            h = self.d2(torch.cat([self.g2(s2, u), u], 1))
            u = self.u1(h)
            return self.out(self.d1(torch.cat([self.g1(s1, u), u], 1)))

    class PoolBlock(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.n1, self.n2 = nn.GroupNorm(1, c), nn.GroupNorm(1, c)
            self.pool = nn.AvgPool2d(3, 1, 1, count_include_pad=False)
            self.mlp = nn.Sequential(nn.Conv2d(c, 4 * c, 1), nn.GELU(), nn.Conv2d(4 * c, c, 1))

        def forward(self, x):
            y = self.n1(x)
            x = x + self.pool(y) - y
            return x + self.mlp(self.n2(x))

    class PoolFormer(nn.Module):  # 4 images of 64x64: 4x4 patches of 64, 2 blocks, 2x2 down to 128, 2 blocks
        def __init__(self):
            super().__init__()
            self.s1 = nn.Sequential(nn.Conv2d(3, 64, 4, 4), PoolBlock(64), PoolBlock(64))
            self.s2 = nn.Sequential(nn.Conv2d(64, 128, 2, 2), PoolBlock(128), PoolBlock(128))
            self.head = nn.Linear(128, 100)

        def forward(self, x):
            return self.head(self.s2(self.s1(x)).mean((2, 3)))

    class LstmAe(nn.Module):  # 16 sequences of 50 steps of 24 features: LSTM 24->128, the code repeated, LSTM 128->24
        def __init__(self):
            super().__init__()
            self.enc = nn.LSTM(24, 128, batch_first=True)
            self.dec = nn.LSTM(128, 64, batch_first=True)
            self.out = nn.Linear(64, 24)

        def forward(self, x):
            _, (h, _) = self.enc(x)
            z = h[-1].unsqueeze(1).repeat(1, x.shape[1], 1)
            y, _ = self.dec(z)
            return self.out(y)

    class Se1d(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.body = nn.Sequential(nn.Conv1d(cin, cout, 7, stride, 3, bias=False), nn.BatchNorm1d(cout), nn.ReLU(),
                                      nn.Conv1d(cout, cout, 7, 1, 3, bias=False), nn.BatchNorm1d(cout))
            self.se = nn.Sequential(nn.AdaptiveAvgPool1d(1), nn.Conv1d(cout, cout // 8, 1), nn.ReLU(),
                                    nn.Conv1d(cout // 8, cout, 1), nn.Sigmoid())
            self.sc = nn.Conv1d(cin, cout, 1, stride) if stride > 1 or cin != cout else nn.Identity()

        def forward(self, x):
            y = self.body(x)
            return F.relu(y * self.se(y) + self.sc(x))

    class EcgNet(nn.Module):  # 32 signals of 1000 samples on 12 leads: 4 SE blocks (32-128 channels), 5 classes
        def __init__(self):
            super().__init__()
            self.blocks = nn.Sequential(Se1d(12, 32, 2), Se1d(32, 64, 2), Se1d(64, 96, 2), Se1d(96, 128, 2))
            self.fc = nn.Linear(128, 5)

        def forward(self, x):
            return self.fc(self.blocks(x).mean(2))

    export_nets(torch, out, 134, (("wavenet_lite_b1_4k", WaveNet, (1, 1, 4000)),
                                  ("espcn_sr_b2_64", Espcn, (2, 3, 64, 64)),
                                  ("attn_unet_b2_64", AttnUnet, (2, 3, 64, 64)),
                                  ("poolformer_b4_64", PoolFormer, (4, 3, 64, 64)),
                                  ("lstm_ae_b16_t50", LstmAe, (16, 50, 24)),
                                  ("ecg_se_cnn_b32_1000", EcgNet, (32, 12, 1000))))
    return 0


def export_thirty_fifth_set(torch, out):
    # Session 34: exported after the executor's GlobalAveragePool change, measured only.
    nn = torch.nn
    F = torch.nn.functional

    class MixerBlock(nn.Module):
        def __init__(self, tokens, c):
            super().__init__()
            self.n1, self.n2 = nn.LayerNorm(c), nn.LayerNorm(c)
            self.tok = nn.Sequential(nn.Linear(tokens, 2 * tokens), nn.GELU(), nn.Linear(2 * tokens, tokens))
            self.ch = nn.Sequential(nn.Linear(c, 4 * c), nn.GELU(), nn.Linear(4 * c, c))

        def forward(self, x):
            x = x + self.tok(self.n1(x).transpose(1, 2)).transpose(1, 2)
            return x + self.ch(self.n2(x))

    class Mixer(nn.Module):  # 4 images of 64x64: 8x8 patches (64 tokens of 128), 4 mixer blocks, 10 classes
        def __init__(self):
            super().__init__()
            self.patch = nn.Conv2d(3, 128, 8, 8)
            self.blocks = nn.Sequential(*[MixerBlock(64, 128) for _ in range(4)])
            self.norm, self.head = nn.LayerNorm(128), nn.Linear(128, 10)

        def forward(self, x):
            h = self.patch(x).flatten(2).transpose(1, 2)
            return self.head(self.norm(self.blocks(h)).mean(1))

    class Highway(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.h, self.t = nn.Linear(c, c), nn.Linear(c, c)

        def forward(self, x):
            g = torch.sigmoid(self.t(x))
            return g * F.relu(self.h(x)) + (1 - g) * x

    class CharCnn(nn.Module):  # 32 texts of 256 characters: embedding 16, convs of widths 3/5/7, max over time, 2 highways
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(96, 16)
            self.convs = nn.ModuleList([nn.Conv1d(16, 64, k, padding=k // 2) for k in (3, 5, 7)])
            self.hw = nn.Sequential(Highway(192), Highway(192))
            self.fc = nn.Linear(192, 4)

        def forward(self, ids):
            e = self.emb(ids).transpose(1, 2)
            h = torch.cat([F.relu(c(e)).amax(2) for c in self.convs], 1)
            return self.fc(self.hw(h))

    class GruAttnDecoder(nn.Module):  # 8 sequences: a GRU encoder over 20 frames of 40, then 12 GRUCell steps with additive attention
        def __init__(self):
            super().__init__()
            self.enc = nn.GRU(40, 96, batch_first=True)
            self.cell = nn.GRUCell(96 + 32, 96)
            self.emb = nn.Linear(32, 32)
            self.wq, self.wk, self.v = nn.Linear(96, 64, bias=False), nn.Linear(96, 64), nn.Linear(64, 1, bias=False)
            self.out = nn.Linear(96, 32)

        def forward(self, x):
            mem, h = self.enc(x)
            h = h[0]
            keys = self.wk(mem)
            y = torch.zeros(x.shape[0], 32)
            outs = []
            for _ in range(12):
                a = torch.softmax(self.v(torch.tanh(keys + self.wq(h).unsqueeze(1))), 1)
                ctx = (a * mem).sum(1)
                h = self.cell(torch.cat([ctx, self.emb(y)], 1), h)
                y = self.out(h)
                outs.append(y)
            return torch.stack(outs, 1)

    class Se(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.f = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(c, c // 4, 1), nn.ReLU(), nn.Conv2d(c // 4, c, 1),
                                   nn.Hardsigmoid())

        def forward(self, x):
            return x * self.f(x)

    class Bneck(nn.Module):
        def __init__(self, cin, exp, cout, k, stride, se):
            super().__init__()
            self.body = nn.Sequential(nn.Conv2d(cin, exp, 1, bias=False), nn.BatchNorm2d(exp), nn.Hardswish(),
                                      nn.Conv2d(exp, exp, k, stride, k // 2, groups=exp, bias=False), nn.BatchNorm2d(exp),
                                      nn.Hardswish(), Se(exp) if se else nn.Identity(),
                                      nn.Conv2d(exp, cout, 1, bias=False), nn.BatchNorm2d(cout))
            self.res = stride == 1 and cin == cout

        def forward(self, x):
            y = self.body(x)
            return x + y if self.res else y

    class Mbv3(nn.Module):  # 8 images of 96x96: a MobileNetV3-small-like stack, 100 classes
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1, bias=False), nn.BatchNorm2d(16), nn.Hardswish())
            self.blocks = nn.Sequential(Bneck(16, 64, 24, 3, 2, False), Bneck(24, 72, 24, 3, 1, False),
                                        Bneck(24, 96, 40, 5, 2, True), Bneck(40, 240, 40, 5, 1, True),
                                        Bneck(40, 240, 80, 5, 2, True), Bneck(80, 480, 80, 3, 1, True))
            self.head = nn.Sequential(nn.Conv2d(80, 320, 1), nn.Hardswish(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                                      nn.Linear(320, 100))

        def forward(self, x):
            return self.head(self.blocks(self.stem(x)))

    def rotate(x, cos, sin):
        a, b = x[..., ::2], x[..., 1::2]
        return torch.stack([a * cos - b * sin, a * sin + b * cos], -1).flatten(-2)

    class RopeBlock(nn.Module):
        def __init__(self, c, heads):
            super().__init__()
            self.h = heads
            self.n1, self.n2 = nn.LayerNorm(c), nn.LayerNorm(c)
            self.qkv, self.proj = nn.Linear(c, 3 * c), nn.Linear(c, c)
            self.mlp = nn.Sequential(nn.Linear(c, 4 * c), nn.GELU(), nn.Linear(4 * c, c))

        def forward(self, x, cos, sin, mask):
            b, t, c = x.shape
            q, k, v = self.qkv(self.n1(x)).view(b, t, 3, self.h, c // self.h).permute(2, 0, 3, 1, 4)
            q, k = rotate(q, cos, sin), rotate(k, cos, sin)
            att = torch.softmax(q @ k.transpose(-1, -2) / (c // self.h) ** 0.5 + mask, -1)
            x = x + self.proj((att @ v).transpose(1, 2).reshape(b, t, c))
            return x + self.mlp(self.n2(x))

    class RopeGpt(nn.Module):  # 2 sequences of 64 tokens over 2000 words: 4 pre-norm blocks of 192 (6 heads), tied head
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(2000, 192)
            self.blocks = nn.ModuleList([RopeBlock(192, 6) for _ in range(4)])
            self.norm = nn.LayerNorm(192)
            pos = torch.arange(64).float().unsqueeze(1) * (10000 ** (-torch.arange(16).float() / 16))
            self.register_buffer("cos", pos.cos())
            self.register_buffer("sin", pos.sin())
            self.register_buffer("mask", torch.triu(torch.full((64, 64), -1e9), 1))

        def forward(self, ids):
            x = self.emb(ids)
            for blk in self.blocks:
                x = blk(x, self.cos, self.sin, self.mask)
            return self.norm(x) @ self.emb.weight.t()

    class Vgg(nn.Module):  # 16 images of 64x64: VGG-style 3x3 stacks 32-64-128-256 with max pools, 2 dense layers
        def __init__(self):
            super().__init__()
            layers, cin = [], 3
            for cout, n in ((32, 2), (64, 2), (128, 3), (256, 3)):
                for _ in range(n):
                    layers += [nn.Conv2d(cin, cout, 3, 1, 1), nn.ReLU()]
                    cin = cout
                layers.append(nn.MaxPool2d(2))
            self.features = nn.Sequential(*layers)
            self.fc = nn.Sequential(nn.Flatten(), nn.Linear(256 * 16, 512), nn.ReLU(), nn.Linear(512, 10))

        def forward(self, x):
            return self.fc(self.features(x))

    export_nets(torch, out, 135, (("mixer_lite_b4_64", Mixer, (4, 3, 64, 64)),
                                  ("charcnn_highway_b32_t256", CharCnn, torch.randint(0, 96, (32, 256))),
                                  ("gru_attn_dec_b8_t12", GruAttnDecoder, (8, 20, 40)),
                                  ("mbv3_lite_b8_96", Mbv3, (8, 3, 96, 96)),
                                  ("rope_gpt_t64", RopeGpt, torch.randint(0, 2000, (2, 64))),
                                  ("vgg_lite_b16_64", Vgg, (16, 3, 64, 64))))
    return 0


def export_thirty_sixth_set(torch, out):
    # Session 34: exported after the far tier (cpu.far_curve) in the cost model, measured only.
    nn = torch.nn
    F = torch.nn.functional

    def c3(cin, cout):
        return nn.Sequential(nn.Conv3d(cin, cout, 3, 1, 1), nn.BatchNorm3d(cout), nn.ReLU())

    class Unet3d(nn.Module):  # 1 volume of 32^3, 2 channels: 2 levels (16, 32), a 64-channel middle, 3 classes
        def __init__(self):
            super().__init__()
            self.e1, self.e2, self.mid = c3(2, 16), c3(16, 32), c3(32, 64)
            self.u2, self.d2 = nn.ConvTranspose3d(64, 32, 2, 2), c3(64, 32)
            self.u1, self.d1 = nn.ConvTranspose3d(32, 16, 2, 2), c3(32, 16)
            self.out = nn.Conv3d(16, 3, 1)

        def forward(self, x):
            s1 = self.e1(x)
            s2 = self.e2(F.max_pool3d(s1, 2))
            m = self.mid(F.max_pool3d(s2, 2))
            h = self.d2(torch.cat([self.u2(m), s2], 1))
            return self.out(self.d1(torch.cat([self.u1(h), s1], 1)))

    class TabBlock(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.f = nn.Sequential(nn.BatchNorm1d(c), nn.Linear(c, 2 * c), nn.ReLU(), nn.Dropout(0.1), nn.Linear(2 * c, c))

        def forward(self, x):
            return x + self.f(x)

    class TabResMlp(nn.Module):  # 512 rows of 48 features: 256 wide, 4 residual blocks, 2 outputs
        def __init__(self):
            super().__init__()
            self.inp = nn.Linear(48, 256)
            self.blocks = nn.Sequential(*[TabBlock(256) for _ in range(4)])
            self.head = nn.Sequential(nn.BatchNorm1d(256), nn.ReLU(), nn.Linear(256, 2))

        def forward(self, x):
            return self.head(self.blocks(self.inp(x)))

    class Crnn(nn.Module):  # 8 text lines of 32x128: 4 conv stages to 256x1x32, a BiLSTM of 128, 80 symbols
        def __init__(self):
            super().__init__()
            def cbr(cin, cout):
                return [nn.Conv2d(cin, cout, 3, 1, 1), nn.BatchNorm2d(cout), nn.ReLU()]
            self.cnn = nn.Sequential(*cbr(1, 64), nn.MaxPool2d(2), *cbr(64, 128), nn.MaxPool2d(2),
                                     *cbr(128, 256), nn.MaxPool2d((2, 1)), *cbr(256, 256), nn.MaxPool2d((4, 1)))
            self.rnn = nn.LSTM(256, 128, bidirectional=True, batch_first=True)
            self.fc = nn.Linear(256, 80)

        def forward(self, x):
            f = self.cnn(x).squeeze(2).transpose(1, 2)
            y, _ = self.rnn(f)
            return self.fc(y).log_softmax(2)

    def cbr2(cin, cout, stride=1):
        return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU())

    class Hrnet(nn.Module):  # 4 images of 128x128: a stem to 1/2, branches at 1/2 (32) and 1/4 (64), 2 exchanges, 17 heatmaps
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(cbr2(3, 32, 2), cbr2(32, 32))
            self.down = cbr2(32, 64, 2)
            self.hi = nn.ModuleList([nn.Sequential(cbr2(32, 32), cbr2(32, 32)) for _ in range(2)])
            self.lo = nn.ModuleList([nn.Sequential(cbr2(64, 64), cbr2(64, 64)) for _ in range(2)])
            self.lo2hi = nn.ModuleList([nn.Conv2d(64, 32, 1) for _ in range(2)])
            self.hi2lo = nn.ModuleList([nn.Conv2d(32, 64, 3, 2, 1) for _ in range(2)])
            self.head = nn.Conv2d(32, 17, 1)

        def forward(self, x):
            h = self.stem(x)
            l = self.down(h)
            for i in range(2):
                h, l = self.hi[i](h), self.lo[i](l)
                h, l = F.relu(h + F.interpolate(self.lo2hi[i](l), scale_factor=2.0, mode="nearest")), F.relu(l + self.hi2lo[i](h))
            return self.head(h)

    class Tdnn(nn.Module):  # 16 utterances of 300 frames of 30 MFCCs: 5 TDNN layers (dilations 1-3), mean and std pooling, 192 embedding
        def __init__(self):
            super().__init__()
            def layer(cin, cout, k, d):
                return [nn.Conv1d(cin, cout, k, dilation=d), nn.ReLU(), nn.BatchNorm1d(cout)]
            self.frames = nn.Sequential(*layer(30, 256, 5, 1), *layer(256, 256, 3, 2), *layer(256, 256, 3, 3),
                                        *layer(256, 256, 1, 1), *layer(256, 768, 1, 1))
            self.emb = nn.Linear(1536, 192)

        def forward(self, x):
            h = self.frames(x)
            return self.emb(torch.cat([h.mean(2), h.std(2)], 1))

    class Siren(nn.Module):  # 8192 coordinates of 2: 4 sine layers of 128 (w0 = 30), 3 outputs
        def __init__(self):
            super().__init__()
            self.layers = nn.ModuleList([nn.Linear(2, 128)] + [nn.Linear(128, 128) for _ in range(3)])
            self.out = nn.Linear(128, 3)

        def forward(self, x):
            for i, l in enumerate(self.layers):
                x = torch.sin((30.0 if i == 0 else 1.0) * l(x))
            return self.out(x)

    export_nets(torch, out, 136, (("unet3d_lite_b1_32", Unet3d, (1, 2, 32, 32, 32)),
                                  ("tab_resmlp_b512", TabResMlp, (512, 48)),
                                  ("crnn_ocr_b8_32x128", Crnn, (8, 1, 32, 128)),
                                  ("hrnet_lite_b4_128", Hrnet, (4, 3, 128, 128)),
                                  ("xvector_tdnn_b16_t300", Tdnn, (16, 30, 300)),
                                  ("siren_b8192", Siren, (8192, 2))))
    return 0


def export_thirty_seventh_set(torch, out):
    # Session 34, at its end: exported after its last change to the cost model, measured only.
    nn = torch.nn
    F = torch.nn.functional

    def cbr(cin, cout, stride=1):
        return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU())

    class Fcn(nn.Module):  # 4 images of 96x96: an encoder to 1/8 (32-128), a 1x1 classifier, bilinear back up, 6 classes
        def __init__(self):
            super().__init__()
            self.enc = nn.Sequential(cbr(3, 32, 2), cbr(32, 32), cbr(32, 64, 2), cbr(64, 64), cbr(64, 128, 2), cbr(128, 128))
            self.cls = nn.Conv2d(128, 6, 1)

        def forward(self, x):
            return F.interpolate(self.cls(self.enc(x)), size=x.shape[2:], mode="bilinear", align_corners=False)

    class GruLm(nn.Module):  # 8 sequences of 48 tokens over 3000 words: embedding 192, 2 GRU layers of 256, softmax head
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(3000, 192)
            self.rnn = nn.GRU(192, 256, num_layers=2, batch_first=True)
            self.head = nn.Linear(256, 3000)

        def forward(self, ids):
            y, _ = self.rnn(self.emb(ids))
            return self.head(y).log_softmax(-1)

    class WideBlock(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.b1, self.c1 = nn.BatchNorm2d(cin), nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.b2, self.c2 = nn.BatchNorm2d(cout), nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.sc = nn.Conv2d(cin, cout, 1, stride, bias=False) if stride != 1 or cin != cout else None

        def forward(self, x):
            o = F.relu(self.b1(x))
            y = self.c2(F.relu(self.b2(self.c1(o))))
            return y + (self.sc(o) if self.sc is not None else x)

    class Wrn(nn.Module):  # 16 images of 32x32: WRN-16-4 (2 blocks a stage, 64-128-256 channels), 10 classes
        def __init__(self):
            super().__init__()
            self.stem = nn.Conv2d(3, 16, 3, 1, 1, bias=False)
            self.blocks = nn.Sequential(WideBlock(16, 64, 1), WideBlock(64, 64, 1), WideBlock(64, 128, 2),
                                        WideBlock(128, 128, 1), WideBlock(128, 256, 2), WideBlock(256, 256, 1))
            self.bn, self.fc = nn.BatchNorm2d(256), nn.Linear(256, 10)

        def forward(self, x):
            return self.fc(F.relu(self.bn(self.blocks(self.stem(x)))).mean((2, 3)))

    class SpeechEncoder(nn.Module):  # 4 utterances of 200 frames of 80 filterbanks: 2 strided Conv2d (x4 fewer frames), 4 layers of 144
        def __init__(self):
            super().__init__()
            self.sub = nn.Sequential(nn.Conv2d(1, 64, 3, 2), nn.ReLU(), nn.Conv2d(64, 64, 3, 2), nn.ReLU())
            self.proj = nn.Linear(64 * 19, 144)
            layer = nn.TransformerEncoderLayer(144, 4, 576, batch_first=True, norm_first=True)
            self.enc = nn.TransformerEncoder(layer, 4, enable_nested_tensor=False)

        def forward(self, x):
            h = self.sub(x.unsqueeze(1))
            b, c, t, f = h.shape
            return self.enc(self.proj(h.transpose(1, 2).reshape(b, t, c * f)))

    class Discriminator(nn.Module):  # 32 images of 64x64: strided 4x4 convs 64-512 with LeakyReLU and BatchNorm, one logit
        def __init__(self):
            super().__init__()
            def down(cin, cout, bn=True):
                return [nn.Conv2d(cin, cout, 4, 2, 1, bias=not bn)] + ([nn.BatchNorm2d(cout)] if bn else []) + [nn.LeakyReLU(0.2)]
            self.net = nn.Sequential(*down(3, 64, False), *down(64, 128), *down(128, 256), *down(256, 512),
                                     nn.Conv2d(512, 1, 4, 1, 0))

        def forward(self, x):
            return torch.sigmoid(self.net(x).flatten(1))

    class BiLstmTagger(nn.Module):  # 16 sentences of 64 tokens over 8000 words: embedding 128, 2 BiLSTM layers of 128, 17 tags
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(8000, 128)
            self.rnn = nn.LSTM(128, 128, num_layers=2, bidirectional=True, batch_first=True)
            self.out = nn.Linear(256, 17)

        def forward(self, ids):
            y, _ = self.rnn(self.emb(ids))
            return self.out(y)

    export_nets(torch, out, 137, (("fcn_seg_b4_96", Fcn, (4, 3, 96, 96)),
                                  ("gru_lm_b8_t48", GruLm, torch.randint(0, 3000, (8, 48))),
                                  ("wrn16_4_b16_32", Wrn, (16, 3, 32, 32)),
                                  ("speech_enc_b4_t200", SpeechEncoder, (4, 200, 80)),
                                  ("dcgan_disc_b32_64", Discriminator, (32, 3, 64, 64)),
                                  ("bilstm2_tagger_b16_t64", BiLstmTagger, torch.randint(0, 8000, (16, 64)))))
    return 0


def export_thirty_eighth_set(torch, out):
    # Session 35: exported after its executor and cost-model changes, measured only.
    nn = torch.nn
    F = torch.nn.functional

    class ShuffleUnit(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.stride = stride
            half = cout // 2
            inp = cin if stride == 2 else half
            self.branch = nn.Sequential(nn.Conv2d(inp, half, 1, bias=False), nn.BatchNorm2d(half), nn.ReLU(),
                                        nn.Conv2d(half, half, 3, stride, 1, groups=half, bias=False), nn.BatchNorm2d(half),
                                        nn.Conv2d(half, half, 1, bias=False), nn.BatchNorm2d(half), nn.ReLU())
            self.short = (nn.Sequential(nn.Conv2d(cin, cin, 3, 2, 1, groups=cin, bias=False), nn.BatchNorm2d(cin),
                                        nn.Conv2d(cin, half, 1, bias=False), nn.BatchNorm2d(half), nn.ReLU())
                          if stride == 2 else None)

        def forward(self, x):
            if self.stride == 1:
                a, b = x.chunk(2, dim=1)
                y = torch.cat((a, self.branch(b)), 1)
            else:
                y = torch.cat((self.short(x), self.branch(x)), 1)
            n, c, h, w = y.shape
            return y.view(n, 2, c // 2, h, w).transpose(1, 2).reshape(n, c, h, w)

    class ShuffleNet(nn.Module):  # 8 images of 96x96: stem 24, stages of 48-96-192 channels (down + 2 units), 1x1 to 512
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 24, 3, 2, 1, bias=False), nn.BatchNorm2d(24), nn.ReLU(),
                                      nn.MaxPool2d(3, 2, 1))
            units, cin = [], 24
            for c in (48, 96, 192):
                units += [ShuffleUnit(cin, c, 2), ShuffleUnit(c, c, 1), ShuffleUnit(c, c, 1)]
                cin = c
            self.units = nn.Sequential(*units)
            self.last = nn.Sequential(nn.Conv2d(192, 512, 1, bias=False), nn.BatchNorm2d(512), nn.ReLU())
            self.fc = nn.Linear(512, 100)

        def forward(self, x):
            return self.fc(self.last(self.units(self.stem(x))).mean((2, 3)))

#!/usr/bin/env python3
    class CapsNet(nn.Module):  # 16 images of 28x28: Conv 9x9 to 128, primary capsules (32 x 6 x 6 of 8), 10 class capsules of 16, 3 routing iterations
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(1, 128, 9)
            self.primary = nn.Conv2d(128, 256, 9, 2)
            self.w = nn.Parameter(torch.randn(1, 1152, 10, 16, 8) * 0.05)

        @staticmethod
        def squash(s):
            n2 = (s * s).sum(-1, keepdim=True)
            return n2 / (1 + n2) * s / torch.sqrt(n2 + 1e-8)

        def forward(self, x):
            u = self.primary(F.relu(self.conv(x)))  # [b, 256, 6, 6]
            b = x.shape[0]
            u = self.squash(u.view(b, 32, 8, 36).permute(0, 1, 3, 2).reshape(b, 1152, 8))
            uhat = (self.w @ u.view(b, 1152, 1, 8, 1)).squeeze(-1)  # [b, 1152, 10, 16]
            logits = torch.zeros(b, 1152, 10)
            for _ in range(3):
                c = logits.softmax(-1)
                v = self.squash((c.unsqueeze(-1) * uhat).sum(1))  # [b, 10, 16]
                logits = logits + (uhat * v.unsqueeze(1)).sum(-1)
            return (v * v).sum(-1).sqrt()

    class RegBlock(nn.Module):
        def __init__(self, cin, cout, stride, group=16):
            super().__init__()
            self.a = nn.Sequential(nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU())
            self.b = nn.Sequential(nn.Conv2d(cout, cout, 3, stride, 1, groups=cout // group, bias=False),
                                   nn.BatchNorm2d(cout), nn.ReLU())
            self.se = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(cout, cin // 4, 1), nn.ReLU(),
                                    nn.Conv2d(cin // 4, cout, 1), nn.Sigmoid())
            self.c = nn.Sequential(nn.Conv2d(cout, cout, 1, bias=False), nn.BatchNorm2d(cout))
            self.sc = (nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
                       if stride != 1 or cin != cout else None)

        def forward(self, x):
            y = self.b(self.a(x))
            y = self.c(y * self.se(y))
            return F.relu(y + (self.sc(x) if self.sc is not None else x))

    class RegNet(nn.Module):  # 8 images of 64x64: a RegNetY-style net (group width 16, SE), widths 32-64-160-384
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU())
            self.blocks = nn.Sequential(RegBlock(32, 64, 2), RegBlock(64, 64, 1), RegBlock(64, 160, 2),
                                        RegBlock(160, 160, 1), RegBlock(160, 384, 2))
            self.fc = nn.Linear(384, 100)

        def forward(self, x):
            return self.fc(self.blocks(self.stem(x)).mean((2, 3)))

    class LinearAttention(nn.Module):
        def __init__(self, d, heads):
            super().__init__()
            self.h = heads
            self.qkv, self.o = nn.Linear(d, 3 * d), nn.Linear(d, d)

        def forward(self, x):
            b, t, d = x.shape
            q, k, v = self.qkv(x).view(b, t, 3, self.h, d // self.h).permute(2, 0, 3, 1, 4)
            q, k = F.elu(q) + 1, F.elu(k) + 1
            kv = k.transpose(-2, -1) @ v  # [b, h, dk, dv]
            z = 1 / (q @ k.sum(-2, keepdim=True).transpose(-2, -1) + 1e-6)  # [b, h, t, 1]
            y = (q @ kv) * z
            return self.o(y.transpose(1, 2).reshape(b, t, d))

    class LinearTransformer(nn.Module):  # 4 sequences of 256 tokens of 128: 4 layers of linear (elu+1) attention, 4 heads, FFN 512
        def __init__(self):
            super().__init__()
            self.attn = nn.ModuleList([LinearAttention(128, 4) for _ in range(4)])
            self.ffn = nn.ModuleList([nn.Sequential(nn.Linear(128, 512), nn.GELU(), nn.Linear(512, 128)) for _ in range(4)])
            self.n1 = nn.ModuleList([nn.LayerNorm(128) for _ in range(4)])
            self.n2 = nn.ModuleList([nn.LayerNorm(128) for _ in range(4)])

        def forward(self, x):
            for a, f, n1, n2 in zip(self.attn, self.ffn, self.n1, self.n2):
                x = x + a(n1(x))
                x = x + f(n2(x))
            return x

    class Inception(nn.Module):
        def __init__(self, cin, c1, c3r, c3, c5r, c5, cp):
            super().__init__()
            def cbr(i, o, k):
                return nn.Sequential(nn.Conv2d(i, o, k, 1, k // 2, bias=False), nn.BatchNorm2d(o), nn.ReLU())
            self.b1 = cbr(cin, c1, 1)
            self.b3 = nn.Sequential(cbr(cin, c3r, 1), cbr(c3r, c3, 3))
            self.b5 = nn.Sequential(cbr(cin, c5r, 1), cbr(c5r, c5, 5))
            self.bp = nn.Sequential(nn.MaxPool2d(3, 1, 1), cbr(cin, cp, 1))

        def forward(self, x):
            return torch.cat((self.b1(x), self.b3(x), self.b5(x), self.bp(x)), 1)

    class InceptionNet(nn.Module):  # 8 images of 64x64: stem to 64 at 32x32, 4 inception blocks (two at 16x16), 100 classes
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 64, 3, 2, 1, bias=False), nn.BatchNorm2d(64), nn.ReLU())
            self.i1 = Inception(64, 32, 48, 64, 8, 16, 16)
            self.i2 = Inception(128, 64, 64, 96, 16, 48, 32)
            self.pool = nn.MaxPool2d(3, 2, 1)
            self.i3 = Inception(240, 96, 48, 104, 8, 24, 32)
            self.i4 = Inception(256, 80, 56, 112, 12, 32, 32)
            self.fc = nn.Linear(256, 100)

        def forward(self, x):
            x = self.i2(self.i1(self.stem(x)))
            return self.fc(self.i4(self.i3(self.pool(x))).mean((2, 3)))

    class GnBlock(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.c1, self.g1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.GroupNorm(8, cout)
            self.c2, self.g2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.GroupNorm(8, cout)
            self.sc = (nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.GroupNorm(8, cout))
                       if stride != 1 or cin != cout else None)

        def forward(self, x):
            y = self.g2(self.c2(F.relu(self.g1(self.c1(x)))))
            return F.relu(y + (self.sc(x) if self.sc is not None else x))

    class GnResNet(nn.Module):  # 8 images of 64x64: a ResNet-18-style net with GroupNorm(8), 32-64-128-256 channels
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, 1, 1, bias=False), nn.GroupNorm(8, 32), nn.ReLU())
            self.blocks = nn.Sequential(GnBlock(32, 32, 1), GnBlock(32, 64, 2), GnBlock(64, 128, 2), GnBlock(128, 256, 2))
            self.fc = nn.Linear(256, 200)

        def forward(self, x):
            return self.fc(self.blocks(self.stem(x)).mean((2, 3)))


    export_nets(torch, out, 138, (("shufflenet_lite_b8_96", ShuffleNet, (8, 3, 96, 96)),
                                  ("capsnet_b16_28", CapsNet, (16, 1, 28, 28)),
                                  ("regnet_lite_b8_64", RegNet, (8, 3, 64, 64)),
                                  ("linear_attn_b4_t256", LinearTransformer, (4, 256, 128)),
                                  ("inception_lite_b8_64", InceptionNet, (8, 3, 64, 64)),
                                  ("gn_resnet_b8_64", GnResNet, (8, 3, 64, 64))))
    return 0


def export_thirty_ninth_set(torch, out):
    # Session 35, at its end: exported after its last change to the cost model, measured only.
    nn = torch.nn
    F = torch.nn.functional

    class FilmCnn(nn.Module):  # 8 images of 64x64 and 8 condition vectors of 32: 4 conv blocks, each FiLM-modulated (scale, shift from an MLP)
        def __init__(self):
            super().__init__()
            chans = (3, 32, 64, 96, 128)
            self.convs = nn.ModuleList([nn.Conv2d(chans[i], chans[i + 1], 3, 2 if i else 1, 1) for i in range(4)])
            self.films = nn.ModuleList([nn.Linear(32, 2 * chans[i + 1]) for i in range(4)])
            self.fc = nn.Linear(128, 10)

        def forward(self, x):
            img, cond = x[:, :3], x[:, 3, 0, :32]
            for conv, film in zip(self.convs, self.films):
                img = conv(img)
                g, b = film(cond).chunk(2, dim=1)
                img = F.relu(img * g[:, :, None, None] + b[:, :, None, None])
            return self.fc(img.mean((2, 3)))

    class DilatedSeg(nn.Module):  # 2 images of 128x128: stride-8 encoder, then 3x3 Convs dilated 2, 4, 8 at 16x16, 1x1 classifier, upsampled x8
        def __init__(self):
            super().__init__()
            def cbr(i, o, s=1, d=1):
                return nn.Sequential(nn.Conv2d(i, o, 3, s, d, dilation=d, bias=False), nn.BatchNorm2d(o), nn.ReLU())
            self.enc = nn.Sequential(cbr(3, 32, 2), cbr(32, 64, 2), cbr(64, 128, 2))
            self.ctx = nn.Sequential(cbr(128, 128, 1, 2), cbr(128, 128, 1, 4), cbr(128, 128, 1, 8))
            self.cls = nn.Conv2d(128, 12, 1)

        def forward(self, x):
            return F.interpolate(self.cls(self.ctx(self.enc(x))), scale_factor=8, mode="bilinear", align_corners=False)

    class Nin(nn.Module):  # 16 images of 32x32: Network in Network (mlpconv blocks of a kxk Conv and two 1x1), max pools, global average of 10 maps
        def __init__(self):
            super().__init__()
            def mlpconv(i, o, k, p):
                return nn.Sequential(nn.Conv2d(i, o, k, 1, p), nn.ReLU(), nn.Conv2d(o, o, 1), nn.ReLU(), nn.Conv2d(o, o, 1), nn.ReLU())
            self.net = nn.Sequential(mlpconv(3, 96, 5, 2), nn.MaxPool2d(3, 2, 1), mlpconv(96, 128, 5, 2), nn.MaxPool2d(3, 2, 1),
                                     mlpconv(128, 128, 3, 1), nn.Conv2d(128, 10, 1))

        def forward(self, x):
            return self.net(x).mean((2, 3))

    class FusedMBConv(nn.Module):
        def __init__(self, cin, cout, expand, stride):
            super().__init__()
            mid = cin * expand
            self.expand = nn.Sequential(nn.Conv2d(cin, mid, 3, stride, 1, bias=False), nn.BatchNorm2d(mid), nn.SiLU())
            self.project = nn.Sequential(nn.Conv2d(mid, cout, 1, bias=False), nn.BatchNorm2d(cout))
            self.skip = stride == 1 and cin == cout

        def forward(self, x):
            y = self.project(self.expand(x))
            return x + y if self.skip else y

    class EffV2Lite(nn.Module):  # 4 images of 96x96: an EfficientNetV2-style stem and fused-MBConv stages (24-48-64), SiLU, 1x1 head to 256
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 24, 3, 2, 1, bias=False), nn.BatchNorm2d(24), nn.SiLU())
            self.blocks = nn.Sequential(FusedMBConv(24, 24, 1, 1), FusedMBConv(24, 48, 4, 2), FusedMBConv(48, 48, 4, 1),
                                        FusedMBConv(48, 64, 4, 2), FusedMBConv(64, 64, 4, 1))
            self.head = nn.Sequential(nn.Conv2d(64, 256, 1, bias=False), nn.BatchNorm2d(256), nn.SiLU())
            self.fc = nn.Linear(256, 100)

        def forward(self, x):
            return self.fc(self.head(self.blocks(self.stem(x))).mean((2, 3)))

    class EdsrBlock(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.c1, self.c2 = nn.Conv2d(c, c, 3, 1, 1), nn.Conv2d(c, c, 3, 1, 1)

        def forward(self, x):
            return x + 0.1 * self.c2(F.relu(self.c1(x)))

    class Edsr(nn.Module):  # 2 images of 48x48: EDSR-style super-resolution x2 (8 residual blocks of 64 without BN, pixel shuffle)
        def __init__(self):
            super().__init__()
            self.head = nn.Conv2d(3, 64, 3, 1, 1)
            self.body = nn.Sequential(*[EdsrBlock(64) for _ in range(8)], nn.Conv2d(64, 64, 3, 1, 1))
            self.up = nn.Sequential(nn.Conv2d(64, 256, 3, 1, 1), nn.PixelShuffle(2), nn.Conv2d(64, 3, 3, 1, 1))

        def forward(self, x):
            h = self.head(x)
            return self.up(h + self.body(h))

    class TsmBlock(nn.Module):
        def __init__(self, c, frames):
            super().__init__()
            self.t = frames
            self.conv = nn.Sequential(nn.Conv2d(c, c, 3, 1, 1, bias=False), nn.BatchNorm2d(c), nn.ReLU())

        def forward(self, x):  # shift an eighth of the channels one frame back and an eighth forward
            nt, c, h, w = x.shape
            v = x.view(nt // self.t, self.t, c, h, w)
            f = c // 8
            back = torch.cat((v[:, 1:, :f], torch.zeros_like(v[:, :1, :f])), 1)
            fwd = torch.cat((torch.zeros_like(v[:, :1, f:2 * f]), v[:, :-1, f:2 * f]), 1)
            shifted = torch.cat((back, fwd, v[:, :, 2 * f:]), 2).view(nt, c, h, w)
            return x + self.conv(shifted)

    class Tsm(nn.Module):  # 2 clips of 8 frames of 56x56: a temporal-shift CNN (channel shifts between frames), 32-64 channels, a clip's mean
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU())
            self.b1, self.down, self.b2 = TsmBlock(32, 8), nn.Conv2d(32, 64, 3, 2, 1), TsmBlock(64, 8)
            self.fc = nn.Linear(64, 20)

        def forward(self, x):
            y = self.b2(self.down(self.b1(self.stem(x))))
            return self.fc(y.mean((2, 3)).view(2, 8, 64).mean(1))

    export_nets(torch, out, 139, (("film_cnn_b8_64", FilmCnn, (8, 4, 64, 64)),
                                  ("dilated_seg_b2_128", DilatedSeg, (2, 3, 128, 128)),
                                  ("nin_b16_32", Nin, (16, 3, 32, 32)),
                                  ("effv2_lite_b4_96", EffV2Lite, (4, 3, 96, 96)),
                                  ("edsr_lite_b2_48", Edsr, (2, 3, 48, 48)),
                                  ("tsm_lite_b2x8_56", Tsm, (16, 3, 56, 56))))
    return 0


def export_fortieth_set(torch, out):
    # Session 36, at its start: exported before any change, measured only.
    nn = torch.nn
    F = torch.nn.functional

    class Cbam(nn.Module):  # channel attention (avg and max pooled through a shared MLP), then spatial (7x7 Conv over channel mean and max)
        def __init__(self, c):
            super().__init__()
            self.mlp = nn.Sequential(nn.Conv2d(c, c // 8, 1), nn.ReLU(), nn.Conv2d(c // 8, c, 1))
            self.spatial = nn.Conv2d(2, 1, 7, 1, 3)

        def forward(self, x):
            a = torch.sigmoid(self.mlp(F.adaptive_avg_pool2d(x, 1)) + self.mlp(F.adaptive_max_pool2d(x, 1)))
            x = x * a
            s = torch.cat((x.mean(1, keepdim=True), x.amax(1, keepdim=True)), 1)
            return x * torch.sigmoid(self.spatial(s))

    class CbamBlock(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.body = nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(),
                                      nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout), Cbam(cout))
            self.short = (nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
                          if stride != 1 or cin != cout else nn.Identity())

        def forward(self, x):
            return F.relu(self.body(x) + self.short(x))

    class CbamResNet(nn.Module):  # 8 images of 64x64: a ResNet of 4 CBAM blocks (32-64-128-128), global average, 10 classes
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, 1, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU())
            self.blocks = nn.Sequential(CbamBlock(32, 32, 1), CbamBlock(32, 64, 2), CbamBlock(64, 128, 2), CbamBlock(128, 128, 1))
            self.fc = nn.Linear(128, 10)

        def forward(self, x):
            return self.fc(self.blocks(self.stem(x)).mean((2, 3)))

    class SplitAttn(nn.Module):  # radix 2: a grouped 3x3 Conv to 2c, the halves summed, pooled, an MLP to 2 logits a channel, softmax over the radix
        def __init__(self, c):
            super().__init__()
            self.c = c
            self.conv = nn.Sequential(nn.Conv2d(c, 2 * c, 3, 1, 1, groups=2, bias=False), nn.BatchNorm2d(2 * c), nn.ReLU())
            self.fc1 = nn.Sequential(nn.Conv2d(c, c // 2, 1), nn.BatchNorm2d(c // 2), nn.ReLU())
            self.fc2 = nn.Conv2d(c // 2, 2 * c, 1)

        def forward(self, x):
            n = x.shape[0]
            y = self.conv(x)
            a, b = y[:, :self.c], y[:, self.c:]
            g = F.adaptive_avg_pool2d(a + b, 1)
            w = self.fc2(self.fc1(g)).view(n, 2, self.c, 1, 1).softmax(1)
            return a * w[:, 0] + b * w[:, 1]

    class ResNeStBlock(nn.Module):
        def __init__(self, cin, c, stride):
            super().__init__()
            self.reduce = nn.Sequential(nn.Conv2d(cin, c, 1, bias=False), nn.BatchNorm2d(c), nn.ReLU())
            self.split = SplitAttn(c)
            self.pool = nn.AvgPool2d(3, stride, 1) if stride > 1 else nn.Identity()
            self.expand = nn.Sequential(nn.Conv2d(c, 4 * c, 1, bias=False), nn.BatchNorm2d(4 * c))
            self.short = (nn.Sequential(nn.AvgPool2d(stride, stride) if stride > 1 else nn.Identity(),
                                        nn.Conv2d(cin, 4 * c, 1, bias=False), nn.BatchNorm2d(4 * c))
                          if stride != 1 or cin != 4 * c else nn.Identity())

        def forward(self, x):
            return F.relu(self.expand(self.pool(self.split(self.reduce(x)))) + self.short(x))

    class ResNeStLite(nn.Module):  # 8 images of 64x64: a deep stem, 3 split-attention bottlenecks (16-32-64 wide, x4 out), 100 classes
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU(),
                                      nn.Conv2d(32, 32, 3, 1, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU())
            self.blocks = nn.Sequential(ResNeStBlock(32, 16, 1), ResNeStBlock(64, 32, 2), ResNeStBlock(128, 64, 2))
            self.fc = nn.Linear(256, 100)

        def forward(self, x):
            return self.fc(self.blocks(self.stem(x)).mean((2, 3)))

    class PspLite(nn.Module):  # 2 images of 192x192: a stride-8 encoder to 24x24, pyramid pooling at 1, 2, 3, 6 bins, bilinear back, 1x1 classifier, x8 up
        def __init__(self):
            super().__init__()
            def cbr(i, o, s):
                return nn.Sequential(nn.Conv2d(i, o, 3, s, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU())
            self.enc = nn.Sequential(cbr(3, 32, 2), cbr(32, 64, 2), cbr(64, 128, 2), cbr(128, 128, 1))
            self.bins = (1, 2, 3, 6)
            self.branches = nn.ModuleList([nn.Sequential(nn.Conv2d(128, 32, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU())
                                           for _ in self.bins])
            self.fuse = cbr(256, 64, 1)
            self.cls = nn.Conv2d(64, 21, 1)

        def forward(self, x):
            f = self.enc(x)
            feats = [f] + [F.interpolate(br(F.adaptive_avg_pool2d(f, b)), size=(24, 24), mode="bilinear", align_corners=False)
                           for b, br in zip(self.bins, self.branches)]
            return F.interpolate(self.cls(self.fuse(torch.cat(feats, 1))), scale_factor=8, mode="bilinear", align_corners=False)

    class NBeats(nn.Module):  # 256 series of 168 steps: 6 fully connected blocks of 4 layers of 256 (ReLU), backcast subtracted, forecasts of 24 summed
        def __init__(self):
            super().__init__()
            self.blocks = nn.ModuleList([nn.Sequential(nn.Linear(168, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(),
                                                       nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU())
                                         for _ in range(6)])
            self.back = nn.ModuleList([nn.Linear(256, 168) for _ in range(6)])
            self.fore = nn.ModuleList([nn.Linear(256, 24) for _ in range(6)])

        def forward(self, x):
            r, y = x, 0
            for blk, b, f in zip(self.blocks, self.back, self.fore):
                h = blk(r)
                r = r - b(h)
                y = y + f(h)
            return y

    class Din(nn.Module):  # 256 users, a behaviour sequence of 50 items and a candidate (ids carried as floats): local activation units over [h, c, h-c, h*c], weighted sum pooling, an MLP
        def __init__(self):
            super().__init__()
            self.items = nn.Embedding(5000, 32)
            self.att = nn.Sequential(nn.Linear(128, 64), nn.Sigmoid(), nn.Linear(64, 16), nn.Sigmoid(), nn.Linear(16, 1))
            self.mlp = nn.Sequential(nn.Linear(64, 128), nn.PReLU(), nn.Linear(128, 64), nn.PReLU(), nn.Linear(64, 1))

        def forward(self, x):
            ids = x.long()
            h, c = self.items(ids[:, :50]), self.items(ids[:, 50:51]).expand(-1, 50, -1)
            w = self.att(torch.cat((h, c, h - c, h * c), -1))
            mask = (ids[:, :50] > 0).float().unsqueeze(-1)
            pooled = (w * mask * h).sum(1)
            return torch.sigmoid(self.mlp(torch.cat((pooled, c[:, 0]), -1)))

    class MaskedConv(nn.Conv2d):
        def __init__(self, kind, cin, cout, k):
            super().__init__(cin, cout, k, 1, k // 2)
            mask = torch.ones_like(self.weight)
            mask[:, :, k // 2, k // 2 + (kind == "B"):] = 0
            mask[:, :, k // 2 + 1:] = 0
            self.register_buffer("mask", mask)

        def forward(self, x):
            return F.conv2d(x, self.weight * self.mask, self.bias, 1, self.padding)

    class PixelCnn(nn.Module):  # 8 images of 28x28: a 7x7 type-A masked Conv, 6 residual type-B 3x3 masked blocks of 64, two 1x1, 256 logits a pixel
        def __init__(self):
            super().__init__()
            self.first = MaskedConv("A", 1, 64, 7)
            self.res = nn.ModuleList([nn.Sequential(nn.ReLU(), nn.Conv2d(64, 32, 1), nn.ReLU(), MaskedConv("B", 32, 32, 3),
                                                    nn.ReLU(), nn.Conv2d(32, 64, 1)) for _ in range(6)])
            self.out = nn.Sequential(nn.ReLU(), nn.Conv2d(64, 64, 1), nn.ReLU(), nn.Conv2d(64, 256, 1))

        def forward(self, x):
            h = self.first(x)
            for r in self.res:
                h = h + r(h)
            return self.out(h)

    torch.manual_seed(140)
    din_x = torch.cat((torch.randint(0, 5000, (256, 50)), torch.randint(1, 5000, (256, 1))), 1).float()
    export_nets(torch, out, 140, (("cbam_resnet_b8_64", CbamResNet, (8, 3, 64, 64)),
                                  ("resnest_lite_b8_64", ResNeStLite, (8, 3, 64, 64)),
                                  ("psp_lite_b2_192", PspLite, (2, 3, 192, 192)),
                                  ("nbeats_b256_168", NBeats, (256, 168)),
                                  ("din_b256_t50", Din, din_x),
                                  ("pixelcnn_b8_28", PixelCnn, (8, 1, 28, 28))))
    return 0


def export_forty_first_set(torch, out):
    # Session 36, at its end: exported after its last change to the cost model, measured only.
    nn = torch.nn
    F = torch.nn.functional

    def cbr(i, o, k=3, s=1, g=1, d=1):
        return nn.Sequential(nn.Conv2d(i, o, k, s, d * (k // 2), dilation=d, groups=g, bias=False), nn.BatchNorm2d(o), nn.ReLU())

    class DualPath(nn.Module):  # a ResNeXt-style bottleneck whose output splits into a residual part (added) and a dense part (concatenated)
        def __init__(self, cin, res, dense, stride):
            super().__init__()
            self.res, self.stride = res, stride
            self.body = nn.Sequential(cbr(cin, 64, 1), cbr(64, 64, 3, stride, g=8), nn.Conv2d(64, res + dense, 1, bias=False),
                                      nn.BatchNorm2d(res + dense))
            self.proj = nn.Sequential(nn.Conv2d(cin, res, 1, stride, bias=False), nn.BatchNorm2d(res)) if stride > 1 or cin < res else None

        def forward(self, x):
            y = self.body(x)
            short = self.proj(x) if self.proj is not None else x[:, :self.res]
            dense = x[:, self.res:] if self.proj is None else x[:, :0, ::self.stride, ::self.stride]
            return F.relu(torch.cat((short + y[:, :self.res], dense, y[:, self.res:]), 1))

    class Dpn(nn.Module):  # 8 images of 64x64: a DPN-style stack of 4 dual-path blocks (residual 64/128, dense +16 each)
        def __init__(self):
            super().__init__()
            self.stem = cbr(3, 64, 3, 2)
            self.blocks = nn.Sequential(DualPath(64, 64, 16, 1), DualPath(80, 64, 16, 1), DualPath(96, 128, 16, 2), DualPath(144, 128, 16, 1))
            self.fc = nn.Linear(160, 10)

        def forward(self, x):
            return self.fc(self.blocks(self.stem(x)).mean((2, 3)))

    class Res2Block(nn.Module):  # a 1x1 to 4 splits of w, each split's 3x3 fed the previous split's output, concatenated, 1x1 back
        def __init__(self, c, w):
            super().__init__()
            self.w = w
            self.reduce = cbr(c, 4 * w, 1)
            self.convs = nn.ModuleList([cbr(w, w) for _ in range(3)])
            self.expand = nn.Sequential(nn.Conv2d(4 * w, c, 1, bias=False), nn.BatchNorm2d(c))

        def forward(self, x):
            parts = list(self.reduce(x).split(self.w, 1))
            ys, prev = [parts[0]], None
            for i, conv in enumerate(self.convs):
                prev = conv(parts[i + 1] if prev is None else parts[i + 1] + prev)
                ys.append(prev)
            return F.relu(x + self.expand(torch.cat(ys, 1)))

    class Res2Net(nn.Module):  # 8 images of 64x64: a Res2Net-style CNN, 3 blocks at 32x32 (w 16) and 3 at 16x16 (w 32)
        def __init__(self):
            super().__init__()
            self.stem = cbr(3, 64, 3, 2)
            self.s1 = nn.Sequential(*[Res2Block(64, 16) for _ in range(3)])
            self.down = cbr(64, 128, 3, 2)
            self.s2 = nn.Sequential(*[Res2Block(128, 32) for _ in range(3)])
            self.fc = nn.Linear(128, 100)

        def forward(self, x):
            return self.fc(self.s2(self.down(self.s1(self.stem(x)))).mean((2, 3)))

    class SkUnit(nn.Module):  # two branches (3x3, and 3x3 dilated 2), fused by a softmax over the branches per channel
        def __init__(self, c):
            super().__init__()
            self.b1, self.b2 = cbr(c, c, 3, g=4), cbr(c, c, 3, g=4, d=2)
            self.fc = nn.Sequential(nn.Linear(c, c // 4), nn.ReLU())
            self.att = nn.Linear(c // 4, 2 * c)

        def forward(self, x):
            a, b = self.b1(x), self.b2(x)
            z = self.fc((a + b).mean((2, 3)))
            w = self.att(z).view(x.shape[0], 2, -1).softmax(1)
            return F.relu(x + a * w[:, 0, :, None, None] + b * w[:, 1, :, None, None])

    class SkNet(nn.Module):  # 8 images of 64x64: selective-kernel units at 64 and 128 channels
        def __init__(self):
            super().__init__()
            self.stem = cbr(3, 64, 3, 2)
            self.body = nn.Sequential(SkUnit(64), SkUnit(64), cbr(64, 128, 3, 2), SkUnit(128), SkUnit(128))
            self.fc = nn.Linear(128, 10)

        def forward(self, x):
            return self.fc(self.body(self.stem(x)).mean((2, 3)))

    class ModConv(nn.Module):  # StyleGAN2's modulated 3x3 convolution: weights scaled per sample by a style, demodulated, run as a grouped Conv
        def __init__(self, cin, cout, wdim):
            super().__init__()
            self.weight = nn.Parameter(torch.randn(cout, cin, 3, 3) * 0.1)
            self.style = nn.Linear(wdim, cin)

        def forward(self, x, w):
            n, c, h, wd = x.shape
            s = self.style(w)
            wt = self.weight[None] * s[:, None, :, None, None]
            wt = wt * torch.rsqrt((wt * wt).sum((2, 3, 4), keepdim=True) + 1e-8)
            y = F.conv2d(x.reshape(1, n * c, h, wd), wt.reshape(-1, c, 3, 3), padding=1, groups=n)
            return F.leaky_relu(y.reshape(n, -1, h, wd), 0.2)

    class StyleGen(nn.Module):  # 4 latents of 64 (as a [4, 64] input): a mapping MLP, a learned 4x4 constant, modulated convs up to 32x32, a to-RGB 1x1
        def __init__(self):
            super().__init__()
            self.mapping = nn.Sequential(*[m for _ in range(4) for m in (nn.Linear(64, 64), nn.LeakyReLU(0.2))])
            self.const = nn.Parameter(torch.randn(1, 64, 4, 4))
            self.convs = nn.ModuleList([ModConv(64, 64, 64) for _ in range(4)])
            self.rgb = nn.Conv2d(64, 3, 1)

        def forward(self, z):
            w = self.mapping(z)
            x = self.const.expand(z.shape[0], -1, -1, -1)
            for i, conv in enumerate(self.convs):
                x = conv(x, w)
                if i < 3:
                    x = F.interpolate(x, scale_factor=2, mode="nearest")
            return self.rgb(x)

    class Mhsa2d(nn.Module):  # self-attention over a feature map's positions, 4 heads, relative position as a learned bias
        def __init__(self, c, hw):
            super().__init__()
            self.qkv = nn.Conv2d(c, 3 * c, 1)
            self.bias = nn.Parameter(torch.zeros(4, hw, hw))
            self.heads = 4

        def forward(self, x):
            n, c, h, w = x.shape
            q, k, v = self.qkv(x).view(n, 3, self.heads, c // self.heads, h * w).unbind(1)
            att = (q.transpose(-1, -2) @ k * (c // self.heads) ** -0.5 + self.bias).softmax(-1)
            return (v @ att.transpose(-1, -2)).reshape(n, c, h, w)

    class BotNet(nn.Module):  # 4 images of 64x64: a ResNet-style stem to 8x8, then bottlenecks with self-attention in place of the 3x3
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(cbr(3, 32, 3, 2), cbr(32, 64, 3, 2), cbr(64, 128, 3, 2))
            self.blocks = nn.ModuleList([nn.Sequential(cbr(128, 64, 1), Mhsa2d(64, 64), nn.BatchNorm2d(64), nn.ReLU(),
                                                       nn.Conv2d(64, 128, 1, bias=False), nn.BatchNorm2d(128)) for _ in range(3)])
            self.fc = nn.Linear(128, 10)

        def forward(self, x):
            x = self.stem(x)
            for b in self.blocks:
                x = F.relu(x + b(x))
            return self.fc(x.mean((2, 3)))

    class AutoInt(nn.Module):  # 512 rows of 16 categorical fields (ids carried as floats): embeddings of 16, 3 interacting self-attention layers (2 heads), a logit
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(16 * 1000, 16)
            self.layers = nn.ModuleList([nn.MultiheadAttention(16 if i == 0 else 32, 2, batch_first=True) for i in range(3)])
            self.res = nn.ModuleList([nn.Linear(16 if i == 0 else 32, 32, bias=False) for i in range(3)])
            self.up = nn.Linear(16, 32)
            self.out = nn.Linear(16 * 32, 1)

        def forward(self, x):
            ids = x.long() + torch.arange(16) * 1000
            h = self.emb(ids)
            for i, (att, res) in enumerate(zip(self.layers, self.res)):
                a, _ = att(h, h, h, need_weights=False)
                a = self.up(a) if i == 0 else a
                h = F.relu(a + res(h))
            return torch.sigmoid(self.out(h.flatten(1)))

    torch.manual_seed(141)
    auto_x = torch.randint(0, 1000, (512, 16)).float()
    export_nets(torch, out, 141, (("dpn_lite_b8_64", Dpn, (8, 3, 64, 64)),
                                  ("res2net_lite_b8_64", Res2Net, (8, 3, 64, 64)),
                                  ("sknet_lite_b8_64", SkNet, (8, 3, 64, 64)),
                                  ("stylegan_lite_b4_32", StyleGen, (4, 64)),
                                  ("botnet_lite_b4_64", BotNet, (4, 3, 64, 64)),
                                  ("autoint_b512_f16", AutoInt, auto_x)))
    return 0


def export_forty_second_set(torch, out):
    # Session 36, at its end, after its last executor change: measured only.
    import math
    nn = torch.nn
    F = torch.nn.functional

    class RepBlock(nn.Module):  # RepVGG's training form: 3x3+BN, 1x1+BN and (same shape) BN of the input, summed, ReLU
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.k3 = nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout))
            self.k1 = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
            self.id = nn.BatchNorm2d(cin) if cin == cout and stride == 1 else None

        def forward(self, x):
            y = self.k3(x) + self.k1(x)
            return F.relu(y + self.id(x) if self.id is not None else y)

    class RepVgg(nn.Module):  # 8 images of 64x64: stages of 1, 2, 2, 1 blocks at 32-64-96-128 channels
        def __init__(self):
            super().__init__()
            cfg = [(3, 32, 2), (32, 64, 2), (64, 64, 1), (64, 96, 2), (96, 96, 1), (96, 128, 2)]
            self.body = nn.Sequential(*[RepBlock(i, o, s) for i, o, s in cfg])
            self.fc = nn.Linear(128, 10)

        def forward(self, x):
            return self.fc(self.body(x).mean((2, 3)))

    class Srcnn(nn.Module):  # 4 single-channel images of 96x96: 9x9 to 64, 1x1 to 32, 5x5 to 1 (SRCNN's 9-1-5)
        def __init__(self):
            super().__init__()
            self.net = nn.Sequential(nn.Conv2d(1, 64, 9, 1, 4), nn.ReLU(), nn.Conv2d(64, 32, 1), nn.ReLU(), nn.Conv2d(32, 1, 5, 1, 2))

        def forward(self, x):
            return self.net(x)

    class MobileNetV1(nn.Module):  # 8 images of 64x64: depthwise-separable blocks with ReLU6, 32 to 256 channels
        def __init__(self):
            super().__init__()
            def ds(i, o, s):
                return nn.Sequential(nn.Conv2d(i, i, 3, s, 1, groups=i, bias=False), nn.BatchNorm2d(i), nn.ReLU6(),
                                     nn.Conv2d(i, o, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU6())
            self.net = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU6(),
                                     ds(32, 64, 1), ds(64, 128, 2), ds(128, 128, 1), ds(128, 256, 2), ds(256, 256, 1))
            self.fc = nn.Linear(256, 100)

        def forward(self, x):
            return self.fc(self.net(x).mean((2, 3)))

    class AlibiLayer(nn.Module):
        def __init__(self, d, heads, t):
            super().__init__()
            self.h = heads
            self.qkv, self.o = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
            slopes = torch.tensor([2 ** (-8 * (i + 1) / heads) for i in range(heads)])
            pos = torch.arange(t)
            bias = -(pos[None, :] - pos[:, None]).abs().float()[None] * slopes[:, None, None]
            causal = torch.triu(torch.full((t, t), float("-inf")), 1)
            self.register_buffer("bias", bias + causal)

        def forward(self, x):
            b, t, d = x.shape
            q, k, v = self.qkv(self.n1(x)).view(b, t, 3, self.h, d // self.h).permute(2, 0, 3, 1, 4)
            att = (q @ k.transpose(-1, -2) / math.sqrt(d // self.h) + self.bias).softmax(-1)
            x = x + self.o((att @ v).transpose(1, 2).reshape(b, t, d))
            return x + self.ff(self.n2(x))

    class AlibiDecoder(nn.Module):  # 2 sequences of 64 tokens of 192: 3 pre-norm layers with ALiBi biases and a causal mask
        def __init__(self):
            super().__init__()
            self.layers = nn.Sequential(*[AlibiLayer(192, 6, 64) for _ in range(3)])

        def forward(self, x):
            return self.layers(x)

    class PerformerLayer(nn.Module):  # FAVOR+-style attention: positive random features exp(w.x - |x|^2/2), linear in the length
        def __init__(self, d, heads, m):
            super().__init__()
            self.h, self.dh = heads, d // heads
            self.qkv, self.o = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.register_buffer("w", torch.randn(self.dh, m))
            self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d))

        def feats(self, x):
            x = x / self.dh ** 0.25
            return torch.exp(x @ self.w - (x * x).sum(-1, keepdim=True) / 2) / self.w.shape[1] ** 0.5

        def forward(self, x):
            b, t, d = x.shape
            q, k, v = self.qkv(self.n1(x)).view(b, t, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
            qf, kf = self.feats(q), self.feats(k)
            kv = kf.transpose(-1, -2) @ v
            z = qf @ kf.sum(-2, keepdim=True).transpose(-1, -2)
            y = (qf @ kv) / (z + 1e-6)
            x = x + self.o(y.transpose(1, 2).reshape(b, t, d))
            return x + self.ff(self.n2(x))

    class Performer(nn.Module):  # 2 sequences of 512 tokens of 128: 2 layers, 4 heads, 64 random features
        def __init__(self):
            super().__init__()
            self.layers = nn.Sequential(*[PerformerLayer(128, 4, 64) for _ in range(2)])

        def forward(self, x):
            return self.layers(x)

    class FNetLayer(nn.Module):  # token mixing: the real part of a 2-D DFT (over tokens and features) as products with cos/sin matrices
        def __init__(self, d, t):
            super().__init__()
            def dft(n):
                k = torch.arange(n).float()
                a = 2 * math.pi * k[:, None] * k[None, :] / n
                return torch.cos(a), torch.sin(a)
            ct, st = dft(t)
            cd, sd = dft(d)
            self.register_buffer("ct", ct)
            self.register_buffer("st", st)
            self.register_buffer("cd", cd)
            self.register_buffer("sd", sd)
            self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

        def forward(self, x):
            mixed = self.ct @ x @ self.cd - self.st @ x @ self.sd  # Re(F_t x F_d) for real x
            x = self.n1(x + mixed)
            return self.n2(x + self.ff(x))

    class FNet(nn.Module):  # 4 sequences of 64 tokens of 128: 3 FNet layers, a pooled classifier
        def __init__(self):
            super().__init__()
            self.layers = nn.Sequential(*[FNetLayer(128, 64) for _ in range(3)])
            self.fc = nn.Linear(128, 4)

        def forward(self, x):
            return self.fc(self.layers(x).mean(1))

    export_nets(torch, out, 142, (("repvgg_lite_b8_64", RepVgg, (8, 3, 64, 64)),
                                  ("srcnn_b4_96", Srcnn, (4, 1, 96, 96)),
                                  ("mobilenetv1_lite_b8_64", MobileNetV1, (8, 3, 64, 64)),
                                  ("alibi_decoder_b2_t64", AlibiDecoder, (2, 64, 192)),
                                  ("performer_lite_b2_t512", Performer, (2, 512, 128)),
                                  ("fnet_lite_b4_t64", FNet, (4, 64, 128))))
    return 0


def export_forty_third_set(torch, out):
    # Session 37, at its start, before any change: measured only.
    nn = torch.nn
    F = torch.nn.functional

    class EffAttention(nn.Module):  # SegFormer's efficient attention: keys and values from a map reduced by a strided Conv
        def __init__(self, c, heads, sr):
            super().__init__()
            self.h = heads
            self.q, self.kv, self.o = nn.Linear(c, c), nn.Linear(c, 2 * c), nn.Linear(c, c)
            self.sr = nn.Conv2d(c, c, sr, sr) if sr > 1 else None
            self.norm = nn.LayerNorm(c) if sr > 1 else None

        def forward(self, x, hw):
            b, n, c = x.shape
            q = self.q(x).view(b, n, self.h, c // self.h).transpose(1, 2)
            if self.sr is not None:
                r = self.sr(x.transpose(1, 2).reshape(b, c, hw[0], hw[1])).flatten(2).transpose(1, 2)
                r = self.norm(r)
            else:
                r = x
            k, v = self.kv(r).view(b, -1, 2, self.h, c // self.h).permute(2, 0, 3, 1, 4)
            att = (q @ k.transpose(-1, -2) * (c // self.h) ** -0.5).softmax(-1)
            return self.o((att @ v).transpose(1, 2).reshape(b, n, c))

    class MixFfn(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.fc1, self.fc2 = nn.Linear(c, 4 * c), nn.Linear(4 * c, c)
            self.dw = nn.Conv2d(4 * c, 4 * c, 3, 1, 1, groups=4 * c)

        def forward(self, x, hw):
            b, n, _ = x.shape
            y = self.fc1(x)
            y = self.dw(y.transpose(1, 2).reshape(b, -1, hw[0], hw[1])).flatten(2).transpose(1, 2)
            return self.fc2(F.gelu(y))

    class SegStage(nn.Module):
        def __init__(self, cin, c, k, s, heads, sr):
            super().__init__()
            self.embed = nn.Conv2d(cin, c, k, s, k // 2)
            self.n0, self.n1, self.n2 = nn.LayerNorm(c), nn.LayerNorm(c), nn.LayerNorm(c)
            self.att, self.ffn = EffAttention(c, heads, sr), MixFfn(c)

        def forward(self, x):
            x = self.embed(x)
            b, c, h, w = x.shape
            t = self.n0(x.flatten(2).transpose(1, 2))
            t = t + self.att(self.n1(t), (h, w))
            t = t + self.ffn(self.n2(t), (h, w))
            return t.transpose(1, 2).reshape(b, c, h, w)

    class SegFormer(nn.Module):  # 2 images of 128x128: 3 stages (32/64/128 channels, reductions 4/2/1), an all-MLP head
        def __init__(self):
            super().__init__()
            self.stages = nn.ModuleList([SegStage(3, 32, 7, 4, 1, 4), SegStage(32, 64, 3, 2, 2, 2), SegStage(64, 128, 3, 2, 4, 1)])
            self.proj = nn.ModuleList([nn.Conv2d(c, 64, 1) for c in (32, 64, 128)])
            self.fuse = nn.Sequential(nn.Conv2d(192, 64, 1, bias=False), nn.BatchNorm2d(64), nn.ReLU(), nn.Conv2d(64, 8, 1))

        def forward(self, x):
            feats = []
            for st in self.stages:
                x = st(x)
                feats.append(x)
            size = feats[0].shape[2:]
            ups = [F.interpolate(p(f), size=size, mode="bilinear", align_corners=False) for p, f in zip(self.proj, feats)]
            return self.fuse(torch.cat(ups, 1))

    class LinformerLayer(nn.Module):
        def __init__(self, d, heads, t, k):
            super().__init__()
            self.h = heads
            self.qkv, self.o = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.e, self.f = nn.Linear(t, k, bias=False), nn.Linear(t, k, bias=False)
            self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

        def forward(self, x):
            b, t, d = x.shape
            q, k, v = self.qkv(self.n1(x)).chunk(3, -1)
            k = self.e(k.transpose(1, 2)).transpose(1, 2)  # [b, k, d]: projected along the sequence
            v = self.f(v.transpose(1, 2)).transpose(1, 2)
            q = q.view(b, t, self.h, -1).transpose(1, 2)
            k = k.reshape(b, -1, self.h, d // self.h).transpose(1, 2)
            v = v.reshape(b, -1, self.h, d // self.h).transpose(1, 2)
            att = (q @ k.transpose(-1, -2) / (d // self.h) ** 0.5).softmax(-1)
            x = x + self.o((att @ v).transpose(1, 2).reshape(b, t, d))
            return x + self.ff(self.n2(x))

    class Linformer(nn.Module):  # 2 sequences of 256 tokens of 192: 3 layers, 6 heads, keys and values projected to 64
        def __init__(self):
            super().__init__()
            self.layers = nn.Sequential(*[LinformerLayer(192, 6, 256, 64) for _ in range(3)])

        def forward(self, x):
            return self.layers(x)

    class NeuralOde(nn.Module):  # 256 states of 32: dx/dt = MLP(x, t) (tanh), 6 fixed RK4 steps over [0, 1], a linear readout
        def __init__(self):
            super().__init__()
            self.f1, self.f2, self.f3 = nn.Linear(33, 64), nn.Linear(64, 64), nn.Linear(64, 32)
            self.out = nn.Linear(32, 10)

        def field(self, x, t):
            tt = torch.full_like(x[:, :1], t)
            return self.f3(torch.tanh(self.f2(torch.tanh(self.f1(torch.cat([x, tt], 1))))))

        def forward(self, x):
            h = 1.0 / 6
            for i in range(6):
                t = i * h
                k1 = self.field(x, t)
                k2 = self.field(x + h / 2 * k1, t + h / 2)
                k3 = self.field(x + h / 2 * k2, t + h / 2)
                k4 = self.field(x + h * k3, t + h)
                x = x + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
            return self.out(x)

    class DcnV2(nn.Module):  # 512 samples: 13 dense features and 16 fields of 24-wide embeddings, 3 cross layers beside a deep MLP
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(16 * 500, 24)
            d = 13 + 16 * 24
            self.cross = nn.ModuleList([nn.Linear(d, d) for _ in range(3)])
            self.deep = nn.Sequential(nn.Linear(d, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU())
            self.head = nn.Linear(d + 128, 1)
            self.register_buffer("offs", torch.arange(16) * 500)

        def forward(self, dense, ids):
            x0 = torch.cat([dense, self.emb(ids + self.offs).flatten(1)], 1)
            x = x0
            for lin in self.cross:
                x = x0 * lin(x) + x
            return torch.sigmoid(self.head(torch.cat([x, self.deep(x0)], 1)))

    class GluBlock(nn.Module):
        def __init__(self, i, o):
            super().__init__()
            self.fc, self.bn = nn.Linear(i, 2 * o, bias=False), nn.BatchNorm1d(2 * o)

        def forward(self, x):
            return F.glu(self.bn(self.fc(x)), -1)

    class TabNet(nn.Module):  # 1024 rows of 48 features: 3 decision steps, each a softmax mask (with prior) then GLU blocks
        def __init__(self):
            super().__init__()
            self.bn = nn.BatchNorm1d(48)
            self.shared = GluBlock(48, 64)
            self.steps = nn.ModuleList([GluBlock(64, 64) for _ in range(3)])
            self.att = nn.ModuleList([nn.Sequential(nn.Linear(32, 48, bias=False), nn.BatchNorm1d(48)) for _ in range(3)])
            self.head = nn.Linear(32, 3)

        def forward(self, x):
            x = self.bn(x)
            prior = torch.ones_like(x)
            a = self.shared(x)[:, 32:]
            out = 0
            for st, att in zip(self.steps, self.att):
                m = (att(a) * prior).softmax(-1)
                prior = prior * (1.3 - m)
                h = self.shared(m * x)
                h = (h + st(h)) * 0.7071
                out = out + F.relu(h[:, :32])
                a = h[:, 32:]
            return self.head(out)

    class EcaBlock(nn.Module):
        def __init__(self, c, stride):
            super().__init__()
            self.c1 = nn.Sequential(nn.Conv2d(c // stride, c, 3, stride, 1, bias=False), nn.BatchNorm2d(c), nn.ReLU())
            self.c2 = nn.Sequential(nn.Conv2d(c, c, 3, 1, 1, bias=False), nn.BatchNorm2d(c))
            self.eca = nn.Conv1d(1, 1, 5, padding=2, bias=False)
            self.down = nn.Sequential(nn.Conv2d(c // stride, c, 1, stride, bias=False), nn.BatchNorm2d(c)) if stride > 1 else None

        def forward(self, x):
            y = self.c2(self.c1(x))
            w = torch.sigmoid(self.eca(y.mean((2, 3)).unsqueeze(1))).squeeze(1)
            y = y * w[:, :, None, None]
            return F.relu(y + (self.down(x) if self.down is not None else x))

    class EcaNet(nn.Module):  # 8 images of 64x64: 6 basic blocks with ECA attention at 32-64-128 channels
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, 1, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU())
            self.body = nn.Sequential(EcaBlock(32, 1), EcaBlock(32, 1), EcaBlock(64, 2), EcaBlock(64, 1), EcaBlock(128, 2), EcaBlock(128, 1))
            self.fc = nn.Linear(128, 10)

        def forward(self, x):
            return self.fc(self.body(self.stem(x)).mean((2, 3)))

    export_nets(torch, out, 143, (("segformer_lite_b2_128", SegFormer, (2, 3, 128, 128)),
                                  ("linformer_b2_t256", Linformer, (2, 256, 192)),
                                  ("neural_ode_rk4_b256", NeuralOde, (256, 32)),
                                  ("tabnet_lite_b1024", TabNet, (1024, 48)),
                                  ("ecanet_b8_64", EcaNet, (8, 3, 64, 64))))
    torch.manual_seed(143)
    dcn = DcnV2().eval()
    torch.onnx.export(dcn, (torch.rand(512, 13), torch.randint(0, 500, (512, 16))), os.path.join(out, "dcnv2_b512.onnx"),
                      opset_version=13, input_names=["dense", "ids"], output_names=["y"])
    print("exported dcnv2_b512", flush=True)
    return 0


def export_forty_fourth_set(torch, out):
    # Session 37, after its executor changes: measured only.
    nn = torch.nn
    F = torch.nn.functional

    def mha(q, k, v, heads):
        b, tq, d = q.shape
        tk = k.shape[1]
        q = q.view(b, tq, heads, d // heads).transpose(1, 2)
        k = k.view(b, tk, heads, d // heads).transpose(1, 2)
        v = v.view(b, tk, heads, d // heads).transpose(1, 2)
        att = (q @ k.transpose(-1, -2) / (d // heads) ** 0.5).softmax(-1)
        return (att @ v).transpose(1, 2).reshape(b, tq, d)

    class Attn(nn.Module):
        def __init__(self, d, heads):
            super().__init__()
            self.h = heads
            self.q, self.k, self.v, self.o = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)

        def forward(self, q, kv):
            return self.o(mha(self.q(q), self.k(kv), self.v(kv), self.h))

    class Detr(nn.Module):  # 2 images of 128x128: 4 strided Convs to 8x8x128, 1 encoder and 2 decoder layers over 25 queries
        def __init__(self):
            super().__init__()
            chans = [3, 32, 64, 96, 128]
            self.backbone = nn.Sequential(*[m for i in range(4) for m in (nn.Conv2d(chans[i], chans[i + 1], 3, 2, 1), nn.BatchNorm2d(chans[i + 1]), nn.ReLU())])
            self.backbone.append(nn.Conv2d(128, 128, 3, 2, 1))
            self.pos = nn.Parameter(torch.randn(1, 16, 128) * 0.02)
            self.queries = nn.Parameter(torch.randn(1, 25, 128) * 0.02)
            self.enc_att, self.enc_ff = Attn(128, 4), nn.Sequential(nn.Linear(128, 256), nn.ReLU(), nn.Linear(256, 128))
            self.dec_self = nn.ModuleList([Attn(128, 4) for _ in range(2)])
            self.dec_cross = nn.ModuleList([Attn(128, 4) for _ in range(2)])
            self.dec_ff = nn.ModuleList([nn.Sequential(nn.Linear(128, 256), nn.ReLU(), nn.Linear(256, 128)) for _ in range(2)])
            self.norms = nn.ModuleList([nn.LayerNorm(128) for _ in range(8)])
            self.cls = nn.Linear(128, 21)
            self.box = nn.Sequential(nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 4))

        def forward(self, x):
            m = self.backbone(x).flatten(2).transpose(1, 2) + self.pos
            m = self.norms[0](m + self.enc_att(m, m))
            m = self.norms[1](m + self.enc_ff(m))
            q = self.queries.expand(x.shape[0], -1, -1)
            for i in range(2):
                q = self.norms[2 + 3 * i](q + self.dec_self[i](q, q))
                q = self.norms[3 + 3 * i](q + self.dec_cross[i](q, m))
                q = self.norms[4 + 3 * i](q + self.dec_ff[i](q))
            return self.cls(q).softmax(-1), torch.sigmoid(self.box(q))

    class BiSeNet(nn.Module):  # 2 images of 128x128: a detail path (3 strided Convs) and a context path with attention refinement, a per-pixel softmax over 12 classes and its ArgMax
        def __init__(self):
            super().__init__()
            def cbr(i, o, s):
                return nn.Sequential(nn.Conv2d(i, o, 3, s, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU())
            self.detail = nn.Sequential(cbr(3, 32, 2), cbr(32, 64, 2), cbr(64, 64, 2))
            self.context = nn.Sequential(cbr(3, 32, 2), cbr(32, 64, 2), cbr(64, 96, 2), cbr(96, 128, 2))
            self.arm = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(128, 128, 1), nn.Sigmoid())
            self.ctx_proj = cbr(128, 64, 1)
            self.fuse = cbr(128, 64, 1)
            self.head = nn.Conv2d(64, 12, 1)

        def forward(self, x):
            d = self.detail(x)
            c = self.context(x)
            c = self.ctx_proj(c * self.arm(c))
            c = F.interpolate(c, size=d.shape[2:], mode="bilinear", align_corners=False)
            y = self.head(self.fuse(torch.cat([d, c], 1)))
            y = F.interpolate(y, scale_factor=8.0, mode="bilinear", align_corners=False)
            p = y.softmax(1)
            return p, p.argmax(1)

    class GatLayer(nn.Module):
        def __init__(self, i, o, heads):
            super().__init__()
            self.h, self.o = heads, o
            self.w = nn.Linear(i, o * heads, bias=False)
            self.a_src, self.a_dst = nn.Parameter(torch.randn(heads, o) * 0.1), nn.Parameter(torch.randn(heads, o) * 0.1)

        def forward(self, x, adj):
            n = x.shape[0]
            h = self.w(x).view(n, self.h, self.o).transpose(0, 1)  # [heads, n, o]
            e = (h * self.a_src[:, None]).sum(-1, keepdim=True) + (h * self.a_dst[:, None]).sum(-1)[:, None, :]
            e = F.leaky_relu(e, 0.2).masked_fill(adj[None] == 0, float("-inf"))
            return F.elu((e.softmax(-1) @ h).transpose(0, 1).reshape(n, self.h * self.o))

    class Gat(nn.Module):  # 400 nodes of 64 features, a random sparse adjacency with self-loops (a buffer): 3 layers of 4 heads
        def __init__(self):
            super().__init__()
            g = torch.Generator().manual_seed(7)
            adj = (torch.rand(400, 400, generator=g) < 0.03).float()
            self.register_buffer("adj", ((adj + adj.t() + torch.eye(400)) > 0).float())
            self.layers = nn.ModuleList([GatLayer(64, 32, 4), GatLayer(128, 32, 4), GatLayer(128, 16, 1)])

        def forward(self, x):
            for layer in self.layers:
                x = layer(x, self.adj)
            return x

    class WnBlock(nn.Module):
        def __init__(self, c, dil):
            super().__init__()
            wn = nn.utils.weight_norm
            self.c1, self.c2 = wn(nn.Conv1d(c, c, 3, padding=2 * dil, dilation=dil)), wn(nn.Conv1d(c, c, 3, padding=2 * dil, dilation=dil))
            self.cut = 2 * dil

        def forward(self, x):
            y = F.relu(self.c1(x)[..., :-self.cut])
            y = F.relu(self.c2(y)[..., :-self.cut])
            return F.relu(x + y)

    class WnTcn(nn.Module):  # 8 sequences of 512 steps, 48 channels: 5 causal blocks of weight-normalised Conv1d (dilations 1-16)
        def __init__(self):
            super().__init__()
            self.inp = nn.Conv1d(12, 48, 1)
            self.blocks = nn.Sequential(*[WnBlock(48, 2 ** i) for i in range(5)])
            self.out = nn.Linear(48, 5)

        def forward(self, x):
            return self.out(self.blocks(self.inp(x))[..., -1])

    class GlobalLn(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.g, self.b = nn.Parameter(torch.ones(1, c, 1)), nn.Parameter(torch.zeros(1, c, 1))

        def forward(self, x):
            m = x.mean((1, 2), keepdim=True)
            v = ((x - m) ** 2).mean((1, 2), keepdim=True)
            return self.g * (x - m) / torch.sqrt(v + 1e-8) + self.b

    class TasBlock(nn.Module):
        def __init__(self, c, h, dil):
            super().__init__()
            self.net = nn.Sequential(nn.Conv1d(c, h, 1), nn.PReLU(), GlobalLn(h),
                                     nn.Conv1d(h, h, 3, padding=dil, dilation=dil, groups=h), nn.PReLU(), GlobalLn(h),
                                     nn.Conv1d(h, c, 1))

        def forward(self, x):
            return x + self.net(x)

    class ConvTasNet(nn.Module):  # 2 mixtures of 8000 samples: a 16-tap encoder (stride 8) to 128, 8 dilated blocks, 2 sigmoid masks, a transposed decoder
        def __init__(self):
            super().__init__()
            self.enc = nn.Conv1d(1, 128, 16, 8, bias=False)
            self.ln = GlobalLn(128)
            self.bottleneck = nn.Conv1d(128, 64, 1)
            self.blocks = nn.Sequential(*[TasBlock(64, 128, 2 ** (i % 4)) for i in range(8)])
            self.mask = nn.Conv1d(64, 2 * 128, 1)
            self.dec = nn.ConvTranspose1d(128, 1, 16, 8, bias=False)

        def forward(self, x):
            w = F.relu(self.enc(x))
            m = torch.sigmoid(self.mask(self.blocks(self.bottleneck(self.ln(w))))).view(x.shape[0], 2, 128, -1)
            s = (w[:, None] * m).view(x.shape[0] * 2, 128, -1)
            return self.dec(s)

    class Mab(nn.Module):
        def __init__(self, d, heads):
            super().__init__()
            self.att = Attn(d, heads)
            self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.ff = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, d))

        def forward(self, q, kv):
            h = self.n1(q + self.att(q, kv))
            return self.n2(h + self.ff(h))

    class SetTransformer(nn.Module):  # 16 sets of 200 points in 3-D: 2 induced set attention blocks (16 inducing points), pooling by attention to 1 seed
        def __init__(self):
            super().__init__()
            self.embed = nn.Linear(3, 128)
            self.ind = nn.ParameterList([nn.Parameter(torch.randn(1, 16, 128) * 0.1) for _ in range(2)])
            self.mab1 = nn.ModuleList([Mab(128, 4) for _ in range(2)])
            self.mab2 = nn.ModuleList([Mab(128, 4) for _ in range(2)])
            self.seed = nn.Parameter(torch.randn(1, 1, 128) * 0.1)
            self.pma = Mab(128, 4)
            self.out = nn.Linear(128, 40)

        def forward(self, x):
            x = self.embed(x)
            for i in range(2):
                h = self.mab1[i](self.ind[i].expand(x.shape[0], -1, -1), x)
                x = self.mab2[i](x, h)
            return self.out(self.pma(self.seed.expand(x.shape[0], -1, -1), x)[:, 0])

    export_nets(torch, out, 144, (("detr_lite_b2_128", Detr, (2, 3, 128, 128)),
                                  ("bisenet_lite_b2_128", BiSeNet, (2, 3, 128, 128)),
                                  ("gat_400", Gat, (400, 64)),
                                  ("wn_tcn_b8_t512", WnTcn, (8, 12, 512)),
                                  ("conv_tasnet_lite_b2", ConvTasNet, (2, 1, 8000)),
                                  ("set_transformer_b16", SetTransformer, (16, 200, 3))))
    return 0


def export_forty_fifth_set(torch, out):
    # Session 37, at its end, after its last change: measured only.
    nn = torch.nn
    F = torch.nn.functional

    class CenterNet(nn.Module):  # 2 images of 128x128: a strided CNN to 32x32x64, heatmaps of 8 classes, peaks by a 3x3 max pool, the top 50
        def __init__(self):
            super().__init__()
            def cbr(i, o, s):
                return nn.Sequential(nn.Conv2d(i, o, 3, s, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU())
            self.body = nn.Sequential(cbr(3, 32, 2), cbr(32, 64, 2), cbr(64, 64, 1), cbr(64, 64, 1))
            self.heat = nn.Sequential(cbr(64, 64, 1), nn.Conv2d(64, 8, 1))
            self.wh = nn.Sequential(cbr(64, 64, 1), nn.Conv2d(64, 4, 1))

        def forward(self, x):
            f = self.body(x)
            h = torch.sigmoid(self.heat(f))
            keep = (F.max_pool2d(h, 3, 1, 1) == h).float()
            scores, idx = (h * keep).flatten(1).topk(50)
            return scores, idx, self.wh(f)

    class EdgeConv(nn.Module):
        def __init__(self, i, o, k):
            super().__init__()
            self.k = k
            self.net = nn.Sequential(nn.Conv2d(2 * i, o, 1, bias=False), nn.BatchNorm2d(o), nn.LeakyReLU(0.2))

        def forward(self, x):  # x [b, c, n]
            b, c, n = x.shape
            d = -2 * x.transpose(1, 2) @ x + (x * x).sum(1, keepdim=True) + (x * x).sum(1, keepdim=True).transpose(1, 2)
            idx = (-d).topk(self.k, -1)[1]  # [b, n, k]
            nb = torch.gather(x.unsqueeze(2).expand(b, c, n, n), 3, idx.unsqueeze(1).expand(b, c, n, self.k))
            ctr = x.unsqueeze(3).expand(b, c, n, self.k)
            return self.net(torch.cat([nb - ctr, ctr], 1)).max(-1)[0]

    class Dgcnn(nn.Module):  # 4 clouds of 256 points: 3 edge convolutions over 16 nearest neighbours, a global max, a classifier
        def __init__(self):
            super().__init__()
            self.e1, self.e2, self.e3 = EdgeConv(3, 32, 16), EdgeConv(32, 32, 16), EdgeConv(32, 64, 16)
            self.head = nn.Sequential(nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 10))

        def forward(self, x):
            a = self.e1(x)
            b = self.e2(a)
            c = self.e3(b)
            return self.head(torch.cat([a, b, c], 1).max(-1)[0])

    class StyleRes(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.net = nn.Sequential(nn.ReflectionPad2d(1), nn.Conv2d(c, c, 3), nn.InstanceNorm2d(c, affine=True), nn.ReLU(),
                                     nn.ReflectionPad2d(1), nn.Conv2d(c, c, 3), nn.InstanceNorm2d(c, affine=True))

        def forward(self, x):
            return x + self.net(x)

    class FastStyle(nn.Module):  # 2 images of 128x128: 9x9 in, two strided Convs, 3 residual blocks, two nearest upsamplings, 9x9 out
        def __init__(self):
            super().__init__()
            def conv(i, o, k, s):
                return nn.Sequential(nn.ReflectionPad2d(k // 2), nn.Conv2d(i, o, k, s), nn.InstanceNorm2d(o, affine=True), nn.ReLU())
            self.down = nn.Sequential(conv(3, 16, 9, 1), conv(16, 32, 3, 2), conv(32, 64, 3, 2))
            self.res = nn.Sequential(*[StyleRes(64) for _ in range(3)])
            self.up1, self.up2 = conv(64, 32, 3, 1), conv(32, 16, 3, 1)
            self.out = nn.Sequential(nn.ReflectionPad2d(4), nn.Conv2d(16, 3, 9))

        def forward(self, x):
            y = self.res(self.down(x))
            y = self.up1(F.interpolate(y, scale_factor=2.0, mode="nearest"))
            y = self.up2(F.interpolate(y, scale_factor=2.0, mode="nearest"))
            return self.out(y)

    class W2vLayer(nn.Module):
        def __init__(self, d, heads):
            super().__init__()
            self.h = heads
            self.qkv, self.o = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

        def forward(self, x):
            b, t, d = x.shape
            q, k, v = self.qkv(x).view(b, t, 3, self.h, d // self.h).permute(2, 0, 3, 1, 4)
            att = (q @ k.transpose(-1, -2) / (d // self.h) ** 0.5).softmax(-1)
            x = self.n1(x + self.o((att @ v).transpose(1, 2).reshape(b, t, d)))
            return self.n2(x + self.ff(x))

    class Wav2Vec2(nn.Module):  # 2 clips of 16000 samples: 5 strided Conv1d (GroupNorm on the first, GELU), a projection, a grouped position Conv1d, 2 layers
        def __init__(self):
            super().__init__()
            layers = [nn.Conv1d(1, 128, 10, 5, bias=False), nn.GroupNorm(128, 128), nn.GELU()]
            for k in (3, 3, 3, 2):
                layers += [nn.Conv1d(128, 128, k, 2, bias=False), nn.GELU()]
            self.features = nn.Sequential(*layers)
            self.norm, self.proj = nn.LayerNorm(128), nn.Linear(128, 192)
            self.pos = nn.Conv1d(192, 192, 33, padding=16, groups=8)
            self.layers = nn.Sequential(*[W2vLayer(192, 6) for _ in range(2)])

        def forward(self, x):
            f = self.proj(self.norm(self.features(x).transpose(1, 2)))
            f = f + F.gelu(self.pos(f.transpose(1, 2))).transpose(1, 2)
            return self.layers(f)

    class RmsNorm(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.w = nn.Parameter(torch.ones(d))

        def forward(self, x):
            return self.w * x * torch.rsqrt((x * x).mean(-1, keepdim=True) + 1e-6)

    class GqaLayer(nn.Module):  # 8 query heads sharing 2 key/value heads, a causal mask, SwiGLU
        def __init__(self, d, heads, kv, t):
            super().__init__()
            self.h, self.kv, self.dh = heads, kv, d // heads
            self.q, self.k, self.v = nn.Linear(d, d, bias=False), nn.Linear(d, kv * self.dh, bias=False), nn.Linear(d, kv * self.dh, bias=False)
            self.o = nn.Linear(d, d, bias=False)
            self.n1, self.n2 = RmsNorm(d), RmsNorm(d)
            self.gate, self.up, self.down = nn.Linear(d, 2 * d, bias=False), nn.Linear(d, 2 * d, bias=False), nn.Linear(2 * d, d, bias=False)
            self.register_buffer("mask", torch.triu(torch.full((t, t), float("-inf")), 1))

        def forward(self, x):
            b, t, d = x.shape
            h = self.n1(x)
            q = self.q(h).view(b, t, self.h, self.dh).transpose(1, 2)
            k = self.k(h).view(b, t, self.kv, self.dh).transpose(1, 2).repeat_interleave(self.h // self.kv, 1)
            v = self.v(h).view(b, t, self.kv, self.dh).transpose(1, 2).repeat_interleave(self.h // self.kv, 1)
            att = (q @ k.transpose(-1, -2) / self.dh ** 0.5 + self.mask).softmax(-1)
            x = x + self.o((att @ v).transpose(1, 2).reshape(b, t, d))
            h = self.n2(x)
            return x + self.down(F.silu(self.gate(h)) * self.up(h))

    class GqaDecoder(nn.Module):  # 2 sequences of 96 tokens of 256: 3 layers
        def __init__(self):
            super().__init__()
            self.layers = nn.Sequential(*[GqaLayer(256, 8, 2, 96) for _ in range(3)])

        def forward(self, x):
            return self.layers(x)

    class SepConv(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.net = nn.Sequential(nn.Conv2d(c, c, 3, 1, 1, groups=c, bias=False), nn.Conv2d(c, c, 1, bias=False), nn.BatchNorm2d(c))

        def forward(self, x):
            return self.net(x)

    class BiFpn(nn.Module):  # 4 images of 128x128: a CNN to levels of 32, 16 and 8 (64 channels), 2 BiFPN layers of weighted fusions, a head on each level
        def __init__(self):
            super().__init__()
            def cbr(i, o, s):
                return nn.Sequential(nn.Conv2d(i, o, 3, s, 1, bias=False), nn.BatchNorm2d(o), nn.SiLU())
            self.stem = nn.Sequential(cbr(3, 32, 2), cbr(32, 64, 2))
            self.l4, self.l5 = cbr(64, 64, 2), cbr(64, 64, 2)
            self.w = nn.ParameterList([nn.Parameter(torch.ones(3)) for _ in range(8)])
            self.convs = nn.ModuleList([SepConv(64) for _ in range(8)])
            self.head = nn.Conv2d(64, 9, 3, 1, 1)

        def fuse(self, i, xs):
            w = F.relu(self.w[i][:len(xs)])
            w = w / (w.sum() + 1e-4)
            return self.convs[i](F.silu(sum(wk * x for wk, x in zip(w, xs))))

        def forward(self, x):
            p3 = self.stem(x)
            p4 = self.l4(p3)
            p5 = self.l5(p4)
            for layer in range(2):
                j = 4 * layer
                t4 = self.fuse(j, [p4, F.interpolate(p5, scale_factor=2.0, mode="nearest")])
                p3 = self.fuse(j + 1, [p3, F.interpolate(t4, scale_factor=2.0, mode="nearest")])
                p4 = self.fuse(j + 2, [p4, t4, F.max_pool2d(p3, 3, 2, 1)])
                p5 = self.fuse(j + 3, [p5, F.max_pool2d(p4, 3, 2, 1)])
            return self.head(p3), self.head(p4), self.head(p5)

    export_nets(torch, out, 145, (("centernet_lite_b2_128", CenterNet, (2, 3, 128, 128)),
                                  ("dgcnn_lite_b4_256", Dgcnn, (4, 3, 256)),
                                  ("fast_style_b2_128", FastStyle, (2, 3, 128, 128)),
                                  ("wav2vec2_lite_b2", Wav2Vec2, (2, 1, 16000)),
                                  ("gqa_decoder_b2_t96", GqaDecoder, (2, 96, 256)),
                                  ("bifpn_lite_b4_128", BiFpn, (4, 3, 128, 128))))
    return 0


def export_forty_sixth_set(torch, out):
    # Session 38, at its start, before any change: measured only.
    nn = torch.nn
    F = torch.nn.functional

    class MoeLayer(nn.Module):  # 8 experts, top-2 gates scattered into a dense gate vector, every expert run
        def __init__(self, d, experts):
            super().__init__()
            self.gate = nn.Linear(d, experts, bias=False)
            self.w1 = nn.Parameter(torch.randn(experts, d, 2 * d) / d ** 0.5)
            self.w2 = nn.Parameter(torch.randn(experts, 2 * d, d) / (2 * d) ** 0.5)
            self.att = nn.MultiheadAttention(d, 4, batch_first=True)
            self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)

        def forward(self, x):
            h = self.n1(x)
            x = x + self.att(h, h, h, need_weights=False)[0]
            h = self.n2(x)
            top, idx = self.gate(h).softmax(-1).topk(2, -1)
            g = torch.zeros_like(self.gate(h)).scatter(-1, idx, top / top.sum(-1, keepdim=True))
            e = torch.einsum("btd,edf->btef", h, self.w1)
            e = torch.einsum("btef,efd->bted", F.gelu(e), self.w2)
            return x + (e * g.unsqueeze(-1)).sum(2)

    class Moe(nn.Module):  # 2 sequences of 64 tokens of 128: 2 layers
        def __init__(self):
            super().__init__()
            self.layers = nn.Sequential(MoeLayer(128, 8), MoeLayer(128, 8))

        def forward(self, x):
            return self.layers(x)

    class MambaBlock(nn.Module):  # in projection, causal depthwise Conv1d, SiLU, input-dependent step, B and C, scan
        def __init__(self, d, n):
            super().__init__()
            self.n = n
            self.inp = nn.Linear(d, 4 * d)
            self.conv = nn.Conv1d(2 * d, 2 * d, 4, padding=3, groups=2 * d)
            self.dt, self.bc = nn.Linear(2 * d, 2 * d), nn.Linear(2 * d, 2 * n, bias=False)
            self.a_log = nn.Parameter(torch.log(torch.arange(1, n + 1).float()).repeat(2 * d, 1))
            self.skip = nn.Parameter(torch.ones(2 * d))
            self.out, self.norm = nn.Linear(2 * d, d), nn.LayerNorm(d)

        def forward(self, x):
            b, t, d = x.shape
            u, z = self.inp(self.norm(x)).chunk(2, -1)
            u = F.silu(self.conv(u.transpose(1, 2))[..., :t]).transpose(1, 2)
            dt = F.softplus(self.dt(u))
            bm, cm = self.bc(u).chunk(2, -1)
            a = -torch.exp(self.a_log)
            h = torch.zeros(b, u.shape[-1], self.n)
            ys = []
            for s in range(t):
                h = torch.exp(dt[:, s, :, None] * a) * h + (dt[:, s] * u[:, s])[..., None] * bm[:, s, None, :]
                ys.append((h * cm[:, s, None, :]).sum(-1))
            y = torch.stack(ys, 1) + u * self.skip
            return x + self.out(y * F.silu(z))

    class Mamba(nn.Module):  # 2 sequences of 32 steps of 96, state 8: 2 blocks
        def __init__(self):
            super().__init__()
            self.layers = nn.Sequential(MambaBlock(96, 8), MambaBlock(96, 8))

        def forward(self, x):
            return self.layers(x)

    class Involution(nn.Module):  # a 7x7 kernel a pixel and group (16 channels a group), applied through unfold
        def __init__(self, c, k=7, groups_c=16):
            super().__init__()
            self.k, self.g = k, c // groups_c
            self.reduce = nn.Sequential(nn.Conv2d(c, c // 4, 1), nn.BatchNorm2d(c // 4), nn.ReLU())
            self.span = nn.Conv2d(c // 4, k * k * self.g, 1)

        def forward(self, x):
            b, c, h, w = x.shape
            ker = self.span(self.reduce(x)).view(b, self.g, 1, self.k * self.k, h, w)
            cols = F.unfold(x, self.k, padding=self.k // 2).view(b, self.g, c // self.g, self.k * self.k, h, w)
            return (ker * cols).sum(3).view(b, c, h, w)

    class RedNet(nn.Module):  # 2 images of 64x64: a stem, 3 bottlenecks with involution, a classifier
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 64, 3, 2, 1, bias=False), nn.BatchNorm2d(64), nn.ReLU())
            self.blocks = nn.ModuleList([nn.Sequential(nn.Conv2d(64, 64, 1, bias=False), nn.BatchNorm2d(64), nn.ReLU(),
                                                       Involution(64), nn.BatchNorm2d(64), nn.ReLU(),
                                                       nn.Conv2d(64, 64, 1, bias=False), nn.BatchNorm2d(64)) for _ in range(3)])
            self.fc = nn.Linear(64, 10)

        def forward(self, x):
            x = self.stem(x)
            for blk in self.blocks:
                x = F.relu(x + blk(x))
            return self.fc(x.mean((2, 3)))

    class LogMel(nn.Module):  # 4 clips of 16000 samples: an STFT as a Conv1d of 256-sample DFT rows, power, 40 mel bands, log, a CNN
        def __init__(self):
            super().__init__()
            n = torch.arange(256).float()
            f = torch.arange(129).float()[:, None]
            win = torch.hann_window(256)
            dft = torch.cat([torch.cos(2 * torch.pi * f * n / 256), -torch.sin(2 * torch.pi * f * n / 256)]) * win
            self.register_buffer("dft", dft[:, None, :])
            self.register_buffer("mel", torch.rand(40, 129) / 16)
            def cbr(i, o):
                return nn.Sequential(nn.Conv2d(i, o, 3, 1, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(), nn.MaxPool2d(2))
            self.cnn = nn.Sequential(cbr(1, 32), cbr(32, 64), cbr(64, 64))
            self.fc = nn.Linear(64, 12)

        def forward(self, x):
            s = F.conv1d(x, self.dft, stride=128)
            re, im = s.chunk(2, 1)
            m = torch.log(torch.matmul(self.mel, re * re + im * im) + 1e-6)
            return self.fc(self.cnn(m.unsqueeze(1)).amax((2, 3)))

    class OctConv(nn.Module):  # high and low frequency maps (half the channels at half the resolution) exchanged
        def __init__(self, c):
            super().__init__()
            h = c // 2
            self.hh, self.hl, self.lh, self.ll = (nn.Conv2d(h, h, 3, 1, 1, bias=False) for _ in range(4))
            self.bh, self.bl = nn.BatchNorm2d(h), nn.BatchNorm2d(h)

        def forward(self, xh, xl):
            yh = self.hh(xh) + F.interpolate(self.lh(xl), scale_factor=2.0, mode="nearest")
            yl = self.ll(xl) + self.hl(F.avg_pool2d(xh, 2))
            return F.relu(self.bh(yh)), F.relu(self.bl(yl))

    class OctNet(nn.Module):  # 2 images of 128x128: a stem to 64x64x64, 4 octave convolutions, merged, a classifier
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 64, 3, 2, 1, bias=False), nn.BatchNorm2d(64), nn.ReLU())
            self.octs = nn.ModuleList([OctConv(64) for _ in range(4)])
            self.fc = nn.Linear(64, 10)

        def forward(self, x):
            x = self.stem(x)
            xh, xl = x[:, :32], F.avg_pool2d(x[:, 32:], 2)
            for o in self.octs:
                xh, xl = o(xh, xl)
            y = torch.cat([xh, F.interpolate(xl, scale_factor=2.0, mode="nearest")], 1)
            return self.fc(y.mean((2, 3)))

    class Vae(nn.Module):  # 8 images of 64x64: 4 strided Convs, mean and log-variance of 64, fixed noise, 4 ConvTransposes, a sigmoid
        def __init__(self):
            super().__init__()
            def down(i, o):
                return nn.Sequential(nn.Conv2d(i, o, 4, 2, 1), nn.LeakyReLU(0.2))
            def up(i, o):
                return nn.Sequential(nn.ConvTranspose2d(i, o, 4, 2, 1), nn.ReLU())
            self.enc = nn.Sequential(down(3, 32), down(32, 64), down(64, 128), down(128, 128))
            self.mu, self.logvar = nn.Linear(2048, 64), nn.Linear(2048, 64)
            self.dec_in = nn.Linear(64, 2048)
            self.dec = nn.Sequential(up(128, 128), up(128, 64), up(64, 32), nn.ConvTranspose2d(32, 3, 4, 2, 1))
            self.register_buffer("eps", torch.randn(8, 64))

        def forward(self, x):
            f = self.enc(x).flatten(1)
            mu, logvar = self.mu(f), self.logvar(f)
            z = mu + torch.exp(0.5 * logvar) * self.eps
            return torch.sigmoid(self.dec(self.dec_in(z).view(-1, 128, 4, 4))), mu, logvar

    export_nets(torch, out, 146, (("moe_transformer_b2_t64", Moe, (2, 64, 128)),
                                  ("mamba_lite_b2_t32", Mamba, (2, 32, 96)),
                                  ("rednet_involution_b2_64", RedNet, (2, 3, 64, 64)),
                                  ("logmel_cnn_b4", LogMel, (4, 1, 16000)),
                                  ("octconv_b2_128", OctNet, (2, 3, 128, 128)),
                                  ("conv_vae_b8_64", Vae, (8, 3, 64, 64))))
    return 0


def export_forty_seventh_set(torch, out):
    # Session 38, after its changes: measured only.
    nn = torch.nn
    F = torch.nn.functional

    class SetAbstraction(nn.Module):  # k nearest of each centre (the first m points), grouped by GatherElements, a shared MLP, a max
        def __init__(self, m, k, i, o):
            super().__init__()
            self.m, self.k = m, k
            self.mlp = nn.Sequential(nn.Conv2d(i + 3, o, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(),
                                     nn.Conv2d(o, o, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU())

        def forward(self, xyz, feat):  # xyz [b, 3, n], feat [b, c, n]
            b, _, n = xyz.shape
            ctr = xyz[:, :, :self.m]
            d = ((ctr.unsqueeze(3) - xyz.unsqueeze(2)) ** 2).sum(1)  # [b, m, n]
            idx = (-d).topk(self.k, -1)[1]  # [b, m, k]
            allf = torch.cat([xyz, feat], 1)  # [b, 3 + c, n]
            c = allf.shape[1]
            g = torch.gather(allf.unsqueeze(2).expand(b, c, self.m, n), 3, idx.unsqueeze(1).expand(b, c, self.m, self.k))
            g = torch.cat([g[:, :3] - ctr.unsqueeze(3), g[:, 3:]], 1)
            return ctr, self.mlp(g).max(-1)[0]

    class PointNet2(nn.Module):  # 4 clouds of 512 points: 2 set abstractions (128 centres of 16, 32 of 16), a classifier
        def __init__(self):
            super().__init__()
            self.sa1, self.sa2 = SetAbstraction(128, 16, 3, 64), SetAbstraction(32, 16, 64, 128)
            self.head = nn.Sequential(nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 10))

        def forward(self, x):
            c1, f1 = self.sa1(x, x)
            _, f2 = self.sa2(c1, f1)
            return self.head(f2.max(-1)[0])

    class RwkvBlock(nn.Module):  # time mixing: a decayed weighted sum of past keys and values, step by step; channel mixing
        def __init__(self, d):
            super().__init__()
            self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.k, self.v, self.r, self.o = (nn.Linear(d, d, bias=False) for _ in range(4))
            self.decay = nn.Parameter(-torch.rand(d))
            self.first = nn.Parameter(torch.rand(d))
            self.ck, self.cv, self.cr = nn.Linear(d, 2 * d, bias=False), nn.Linear(2 * d, d, bias=False), nn.Linear(d, d, bias=False)

        def forward(self, x):
            b, t, d = x.shape
            h = self.n1(x)
            k, v, r = self.k(h), self.v(h), torch.sigmoid(self.r(h))
            w = torch.exp(self.decay)
            num = torch.zeros(b, d)
            den = torch.zeros(b, d)
            ys = []
            for s in range(t):
                ek = torch.exp(k[:, s])
                eu = torch.exp(self.first + k[:, s])
                ys.append((num + eu * v[:, s]) / (den + eu))
                num = w * num + ek * v[:, s]
                den = w * den + ek
            x = x + self.o(r * torch.stack(ys, 1))
            h = self.n2(x)
            return x + torch.sigmoid(self.cr(h)) * self.cv(torch.relu(self.ck(h)) ** 2)

    class Rwkv(nn.Module):  # 2 sequences of 24 tokens from a vocabulary of 2000, 128 wide: 2 blocks, a head
        def __init__(self):
            super().__init__()
            self.e = nn.Embedding(2000, 128)
            self.blocks = nn.Sequential(RwkvBlock(128), RwkvBlock(128))
            self.head = nn.Linear(128, 2000)

        def forward(self, t):
            return self.head(self.blocks(self.e(t)))

    class Grn(nn.Module):  # gated residual network: ELU, a GLU gate, a residual, LayerNorm
        def __init__(self, i, d, o):
            super().__init__()
            self.a, self.b = nn.Linear(i, d), nn.Linear(d, d)
            self.g = nn.Linear(d, 2 * o)
            self.skip = nn.Linear(i, o) if i != o else nn.Identity()
            self.n = nn.LayerNorm(o)

        def forward(self, x):
            return self.n(self.skip(x) + F.glu(self.g(self.b(F.elu(self.a(x)))), -1))

    class Tft(nn.Module):  # 16 series of 48 steps of 12 variables: variable selection, an LSTM, attention, GRNs, quantiles
        def __init__(self):
            super().__init__()
            self.vars = nn.ModuleList([Grn(1, 32, 32) for _ in range(12)])
            self.select = Grn(12, 32, 12)
            self.lstm = nn.LSTM(32, 32, batch_first=True)
            self.att = nn.MultiheadAttention(32, 4, batch_first=True)
            self.post = Grn(32, 32, 32)
            self.out = nn.Linear(32, 3)

        def forward(self, x):  # [b, t, 12]
            w = self.select(x).softmax(-1)  # [b, t, 12]
            e = torch.stack([g(x[..., i:i + 1]) for i, g in enumerate(self.vars)], -1)  # [b, t, 32, 12]
            h = (e * w.unsqueeze(2)).sum(-1)
            h, _ = self.lstm(h)
            a = self.att(h, h, h, need_weights=False)[0]
            return self.out(self.post(h + a))

    class SiamFc(nn.Module):  # 4 pairs: a 63x63 template and a 127x127 search image through a shared CNN, depthwise cross-correlation
        def __init__(self):
            super().__init__()
            def cbr(i, o, k, s):
                return nn.Sequential(nn.Conv2d(i, o, k, s, bias=False), nn.BatchNorm2d(o), nn.ReLU())
            self.body = nn.Sequential(cbr(3, 32, 5, 2), nn.MaxPool2d(3, 2), cbr(32, 64, 3, 1), cbr(64, 64, 3, 1))
            self.head = nn.Conv2d(64, 1, 1)

        def forward(self, x):  # x [b, 3, 127, 127]; the template is its centre 63x63
            b = x.shape[0]
            z = self.body(x[:, :, 32:95, 32:95])  # [b, 64, 12, 12]
            s = self.body(x)  # [b, 64, 28, 28]
            c = F.conv2d(s.reshape(1, b * 64, s.shape[2], s.shape[3]), z.reshape(b * 64, 1, z.shape[2], z.shape[3]), groups=b * 64)
            return self.head(c.reshape(b, 64, c.shape[2], c.shape[3]))

    class RelLayer(nn.Module):  # content and position scores, the position scores shifted to relative distances by pad + reshape
        def __init__(self, d, heads, t):
            super().__init__()
            self.h, self.dh = heads, d // heads
            self.qkv, self.o = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.pos = nn.Parameter(torch.randn(2 * t - 1, d) / d ** 0.5)
            self.u, self.v = nn.Parameter(torch.zeros(heads, self.dh)), nn.Parameter(torch.zeros(heads, self.dh))
            self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

        def forward(self, x):
            b, t, d = x.shape
            q, k, v = self.qkv(x).view(b, t, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
            p = self.pos.view(2 * t - 1, self.h, self.dh).transpose(0, 1)  # [h, 2t-1, dh]
            ac = (q + self.u[None, :, None]) @ k.transpose(-1, -2)
            bd = (q + self.v[None, :, None]) @ p.transpose(-1, -2)  # [b, h, t, 2t-1]
            bd = F.pad(bd, (1, 0)).view(b, self.h, 2 * t, t)[:, :, 1:].reshape(b, self.h, t, 2 * t - 1)[..., :t]
            att = ((ac + bd) / self.dh ** 0.5).softmax(-1)
            x = self.n1(x + self.o((att @ v).transpose(1, 2).reshape(b, t, d)))
            return self.n2(x + self.ff(x))

    class TransformerXl(nn.Module):  # 2 sequences of 80 tokens of 192: 3 layers
        def __init__(self):
            super().__init__()
            self.layers = nn.Sequential(*[RelLayer(192, 6, 80) for _ in range(3)])

        def forward(self, x):
            return self.layers(x)

    class Esp(nn.Module):  # reduce, 4 dilated 3x3 branches (1, 2, 4, 8) summed hierarchically, concatenated, a residual
        def __init__(self, c):
            super().__init__()
            self.reduce = nn.Conv2d(c, c // 4, 1, bias=False)
            self.branches = nn.ModuleList([nn.Conv2d(c // 4, c // 4, 3, 1, r, dilation=r, bias=False) for r in (1, 2, 4, 8)])
            self.bn = nn.BatchNorm2d(c)

        def forward(self, x):
            r = self.reduce(x)
            outs = [self.branches[0](r)]
            for br in self.branches[1:]:
                outs.append(outs[-1] + br(r))
            return F.prelu(self.bn(x + torch.cat(outs, 1)), torch.tensor([0.25]))

    class EspNet(nn.Module):  # 2 images of 256x256: strided stem to 64x64x64, 4 ESP modules, a 1x1 classifier, upsampled
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1, bias=False), nn.BatchNorm2d(32), nn.PReLU(32),
                                      nn.Conv2d(32, 64, 3, 2, 1, bias=False), nn.BatchNorm2d(64), nn.PReLU(64))
            self.esp = nn.Sequential(*[Esp(64) for _ in range(4)])
            self.cls = nn.Conv2d(64, 8, 1)

        def forward(self, x):
            return F.interpolate(self.cls(self.esp(self.stem(x))), scale_factor=4.0, mode="bilinear", align_corners=False)

    torch.manual_seed(147)
    tokens = torch.randint(0, 2000, (2, 24))
    export_nets(torch, out, 147, (("pointnet2_lite_b4_512", PointNet2, (4, 3, 512)),
                                  ("rwkv_lite_b2_t24", Rwkv, tokens),
                                  ("tft_lite_b16_t48", Tft, (16, 48, 12)),
                                  ("siamfc_lite_b4", SiamFc, (4, 3, 127, 127)),
                                  ("transformer_xl_b2_t80", TransformerXl, (2, 80, 192)),
                                  ("espnet_lite_b2_256", EspNet, (2, 3, 256, 256))))
    return 0


def export_forty_eighth_set(torch, out):
    # Session 38, at its end, after its last change: measured only.
    nn = torch.nn
    F = torch.nn.functional

    class TimeBlock(nn.Module):  # GroupNorm, SiLU, 3x3 Conv, the timestep embedding added per channel, twice, a residual
        def __init__(self, i, o, td):
            super().__init__()
            self.n1, self.c1 = nn.GroupNorm(8, i), nn.Conv2d(i, o, 3, 1, 1)
            self.t = nn.Linear(td, o)
            self.n2, self.c2 = nn.GroupNorm(8, o), nn.Conv2d(o, o, 3, 1, 1)
            self.skip = nn.Conv2d(i, o, 1) if i != o else nn.Identity()

        def forward(self, x, te):
            h = self.c1(F.silu(self.n1(x))) + self.t(te)[:, :, None, None]
            return self.skip(x) + self.c2(F.silu(self.n2(h)))

    class DdpmUnet(nn.Module):  # 4 images of 32x32 (the timestep is the mean of the first channel's values, scaled): 2 levels down, 1 middle, 2 up
        def __init__(self):
            super().__init__()
            self.temb = nn.Sequential(nn.Linear(64, 128), nn.SiLU(), nn.Linear(128, 128))
            self.inp = nn.Conv2d(3, 32, 3, 1, 1)
            self.d1, self.d2 = TimeBlock(32, 32, 128), TimeBlock(32, 64, 128)
            self.mid = TimeBlock(64, 64, 128)
            self.u2, self.u1 = TimeBlock(128, 32, 128), TimeBlock(64, 32, 128)
            self.out = nn.Conv2d(32, 3, 3, 1, 1)
            self.register_buffer("freqs", torch.exp(-torch.arange(32).float() * (9.21 / 32)))

        def forward(self, x):
            t = x[:, 0].mean((1, 2)) * 1000
            a = t[:, None] * self.freqs[None]
            te = self.temb(torch.cat([a.sin(), a.cos()], -1))
            h0 = self.inp(x)
            h1 = self.d1(h0, te)
            h2 = self.d2(F.avg_pool2d(h1, 2), te)
            m = self.mid(F.avg_pool2d(h2, 2), te)
            u = self.u2(torch.cat([F.interpolate(m, scale_factor=2.0, mode="nearest"), h2], 1), te)
            u = self.u1(torch.cat([F.interpolate(u, scale_factor=2.0, mode="nearest"), h1], 1), te)
            return self.out(F.silu(u))

    class Gin(nn.Module):  # 512 nodes of 64 features, a dense adjacency from their similarity: 4 GIN layers ((1 + eps) x + A x, an MLP), a readout
        def __init__(self):
            super().__init__()
            self.eps = nn.Parameter(torch.zeros(4))
            self.mlps = nn.ModuleList([nn.Sequential(nn.Linear(64, 128), nn.BatchNorm1d(128), nn.ReLU(), nn.Linear(128, 64))
                                       for _ in range(4)])
            self.head = nn.Linear(64 * 5, 10)

        def forward(self, x):  # x [512, 64]
            adj = (torch.sigmoid(x @ x.t()) > 0.9).float()
            hs = [x]
            for k, mlp in enumerate(self.mlps):
                x = F.relu(mlp((1 + self.eps[k]) * x + adj @ x))
                hs.append(x)
            return self.head(torch.cat([h.sum(0, keepdim=True) for h in hs], 1))

    class Mdn(nn.Module):  # 4096 inputs of 16: an MLP, 8 Gaussian components of 4 dimensions (weights, means, scales)
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(nn.Linear(16, 256), nn.Tanh(), nn.Linear(256, 256), nn.Tanh())
            self.pi, self.mu, self.sigma = nn.Linear(256, 8), nn.Linear(256, 32), nn.Linear(256, 32)

        def forward(self, x):
            h = self.body(x)
            return self.pi(h).log_softmax(-1), self.mu(h).view(-1, 8, 4), torch.exp(self.sigma(h)).view(-1, 8, 4)

    class MbConv(nn.Module):
        def __init__(self, i, o, s):
            super().__init__()
            self.net = nn.Sequential(nn.Conv2d(i, 4 * i, 1, bias=False), nn.BatchNorm2d(4 * i), nn.GELU(),
                                     nn.Conv2d(4 * i, 4 * i, 3, s, 1, groups=4 * i, bias=False), nn.BatchNorm2d(4 * i), nn.GELU(),
                                     nn.Conv2d(4 * i, o, 1, bias=False), nn.BatchNorm2d(o))
            self.skip = nn.Sequential(nn.AvgPool2d(2), nn.Conv2d(i, o, 1)) if s == 2 else nn.Identity()

        def forward(self, x):
            return self.skip(x) + self.net(x)

    class RelAttn(nn.Module):  # attention over an 8x8 map with a learned bias by relative position
        def __init__(self, d, heads, side):
            super().__init__()
            self.h, self.dh = heads, d // heads
            self.n, self.qkv, self.o = nn.LayerNorm(d), nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.table = nn.Parameter(torch.randn(heads, (2 * side - 1) ** 2) * 0.02)
            ys, xs = torch.meshgrid(torch.arange(side), torch.arange(side), indexing="ij")
            p = torch.stack([ys.flatten(), xs.flatten()])
            rel = (p[:, :, None] - p[:, None, :]) + side - 1
            self.register_buffer("index", rel[0] * (2 * side - 1) + rel[1])
            self.ff = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

        def forward(self, x):  # [b, t, d]
            b, t, d = x.shape
            q, k, v = self.qkv(self.n(x)).view(b, t, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
            att = (q @ k.transpose(-1, -2) / self.dh ** 0.5 + self.table[:, self.index]).softmax(-1)
            x = x + self.o((att @ v).transpose(1, 2).reshape(b, t, d))
            return x + self.ff(x)

    class CoAtNet(nn.Module):  # 4 images of 64x64: a stem, MBConv stages to 8x8x128, 2 attention layers, a classifier
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1, bias=False), nn.BatchNorm2d(32), nn.GELU())
            self.s1 = nn.Sequential(MbConv(32, 64, 2), MbConv(64, 64, 1))
            self.s2 = nn.Sequential(MbConv(64, 128, 2), MbConv(128, 128, 1))
            self.att = nn.Sequential(RelAttn(128, 4, 8), RelAttn(128, 4, 8))
            self.fc = nn.Linear(128, 10)

        def forward(self, x):
            f = self.s2(self.s1(self.stem(x)))
            return self.fc(self.att(f.flatten(2).transpose(1, 2)).mean(1))

    class NonLocal(nn.Module):  # embedded Gaussian: theta, phi (max-pooled), g, softmax over positions, a 1x1 out with BN, a residual
        def __init__(self, c):
            super().__init__()
            self.theta, self.phi, self.g = nn.Conv2d(c, c // 2, 1), nn.Conv2d(c, c // 2, 1), nn.Conv2d(c, c // 2, 1)
            self.out = nn.Sequential(nn.Conv2d(c // 2, c, 1), nn.BatchNorm2d(c))

        def forward(self, x):
            b, c, h, w = x.shape
            th = self.theta(x).flatten(2).transpose(1, 2)
            ph = F.max_pool2d(self.phi(x), 2).flatten(2)
            g = F.max_pool2d(self.g(x), 2).flatten(2).transpose(1, 2)
            y = ((th @ ph).softmax(-1) @ g).transpose(1, 2).reshape(b, c // 2, h, w)
            return x + self.out(y)

    class NonLocalResNet(nn.Module):  # 4 images of 64x64: basic blocks to 16x16x128 with a non-local block after each stage
        def __init__(self):
            super().__init__()
            def block(i, o, s):
                return nn.Sequential(nn.Conv2d(i, o, 3, s, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(),
                                     nn.Conv2d(o, o, 3, 1, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU())
            self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, 1, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU())
            self.net = nn.Sequential(block(32, 64, 2), NonLocal(64), block(64, 128, 2), NonLocal(128))
            self.fc = nn.Linear(128, 10)

        def forward(self, x):
            return self.fc(self.net(self.stem(x)).mean((2, 3)))

    class CondBn(nn.Module):  # BatchNorm without its own affine, a per-class scale and shift
        def __init__(self, c, classes):
            super().__init__()
            self.bn = nn.BatchNorm2d(c, affine=False)
            self.gamma, self.beta = nn.Embedding(classes, c), nn.Embedding(classes, c)

        def forward(self, x, y):
            return self.bn(x) * (1 + self.gamma(y))[:, :, None, None] + self.beta(y)[:, :, None, None]

    class CondGenerator(nn.Module):  # 8 latents of 128 (the class from the latent's argmax over 10): 4x4 -> 64x64 by upsampling blocks with conditional BN
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(128, 256 * 16)
            self.bns = nn.ModuleList([CondBn(c, 10) for c in (256, 128, 64, 32)])
            self.convs = nn.ModuleList([nn.Conv2d(i, o, 3, 1, 1) for i, o in ((256, 128), (128, 64), (64, 32), (32, 32))])
            self.out = nn.Conv2d(32, 3, 3, 1, 1)

        def forward(self, z):
            y = z[:, :10].argmax(1)
            h = self.fc(z).view(-1, 256, 4, 4)
            for bn, conv in zip(self.bns, self.convs):
                h = conv(F.interpolate(F.relu(bn(h, y)), scale_factor=2.0, mode="nearest"))
            return torch.tanh(self.out(F.relu(h)))

    export_nets(torch, out, 148, (("ddpm_unet_lite_b4_32", DdpmUnet, (4, 3, 32, 32)),
                                  ("gin_dense_512", Gin, (512, 64)),
                                  ("mdn_mlp_b4096", Mdn, (4096, 16)),
                                  ("coatnet_lite_b4_64", CoAtNet, (4, 3, 64, 64)),
                                  ("nonlocal_resnet_b4_64", NonLocalResNet, (4, 3, 64, 64)),
                                  ("cond_generator_b8", CondGenerator, (8, 128))))
    return 0


def export_forty_ninth_set(torch, out):
    # Session 39, at its start, before any change: measured only.
    nn = torch.nn
    F = torch.nn.functional

    class Stn(nn.Module):  # 16 images of 64x64: a localisation net predicts an affine warp, GridSample resamples, a small CNN classifies
        def __init__(self):
            super().__init__()
            self.loc = nn.Sequential(nn.Conv2d(3, 16, 5, 2, 2), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU(),
                                     nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 6))
            self.cnn = nn.Sequential(nn.Conv2d(3, 32, 3, 1, 1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
                                     nn.Conv2d(32, 64, 3, 1, 1), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2),
                                     nn.Conv2d(64, 128, 3, 1, 1), nn.BatchNorm2d(128), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                                     nn.Linear(128, 10))
            ys, xs = torch.meshgrid((torch.arange(64) * 2 + 1) / 64 - 1, (torch.arange(64) * 2 + 1) / 64 - 1, indexing="ij")
            self.register_buffer("base", torch.stack([xs.flatten(), ys.flatten(), torch.ones(64 * 64)], 1))

        def forward(self, x):
            theta = self.loc(x).view(-1, 2, 3) * 0.1 + torch.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
            grid = (self.base @ theta.transpose(1, 2)).view(x.shape[0], 64, 64, 2)  # affine_grid has no ONNX export in torch 1.13
            return self.cnn(F.grid_sample(x, grid, align_corners=False))

    class VqVae(nn.Module):  # 4 images of 64x64: a conv encoder to 16x16x64, the nearest of 256 codes by ArgMin of distances, a Gather, a decoder
        def __init__(self):
            super().__init__()
            self.enc = nn.Sequential(nn.Conv2d(3, 64, 4, 2, 1), nn.ReLU(), nn.Conv2d(64, 64, 4, 2, 1), nn.ReLU(), nn.Conv2d(64, 64, 3, 1, 1))
            self.codes = nn.Parameter(torch.randn(256, 64))
            self.dec = nn.Sequential(nn.Conv2d(64, 64, 3, 1, 1), nn.ReLU(), nn.ConvTranspose2d(64, 64, 4, 2, 1), nn.ReLU(),
                                     nn.ConvTranspose2d(64, 3, 4, 2, 1), nn.Sigmoid())

        def forward(self, x):
            z = self.enc(x)
            b, c, h, w = z.shape
            f = z.permute(0, 2, 3, 1).reshape(-1, c)
            d = (f * f).sum(1, keepdim=True) - 2 * f @ self.codes.t() + (self.codes * self.codes).sum(1)[None]
            q = self.codes[d.argmin(1)].view(b, h, w, c).permute(0, 3, 1, 2)
            return self.dec(q)

    class Coupling(nn.Module):  # RealNVP affine coupling: half the features scale and shift the other half (tanh-bounded log scale)
        def __init__(self, d, flip):
            super().__init__()
            self.flip = flip
            self.net = nn.Sequential(nn.Linear(d // 2, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, d))

        def forward(self, x):
            a, b = x.chunk(2, 1)
            if self.flip:
                a, b = b, a
            s, t = self.net(a).chunk(2, 1)
            s = torch.tanh(s)
            b = b * torch.exp(s) + t
            return torch.cat([b, a] if self.flip else [a, b], 1), s.sum(1)

    class RealNvp(nn.Module):  # 1024 samples of 32: 6 coupling layers, the log-determinant summed, a Gaussian log-likelihood
        def __init__(self):
            super().__init__()
            self.layers = nn.ModuleList([Coupling(32, k % 2 == 1) for k in range(6)])

        def forward(self, x):
            logdet = torch.zeros(x.shape[0])
            for layer in self.layers:
                x, ld = layer(x)
                logdet = logdet + ld
            return -0.5 * (x * x).sum(1) - 29.4 + logdet

    class Grn(nn.Module):  # ConvNeXt V2's global response norm on channels-last maps
        def __init__(self, c):
            super().__init__()
            self.g, self.b = nn.Parameter(torch.randn(c) * 0.1), nn.Parameter(torch.zeros(c))

        def forward(self, x):  # [b, h, w, c]
            gx = torch.norm(x, p=2, dim=(1, 2), keepdim=True)
            nx = gx / (gx.mean(-1, keepdim=True) + 1e-6)
            return self.g * (x * nx) + self.b + x

    class V2Block(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.dw = nn.Conv2d(c, c, 7, 1, 3, groups=c)
            self.n, self.p1, self.grn, self.p2 = nn.LayerNorm(c), nn.Linear(c, 4 * c), Grn(4 * c), nn.Linear(4 * c, c)

        def forward(self, x):
            h = self.dw(x).permute(0, 2, 3, 1)
            h = self.p2(self.grn(F.gelu(self.p1(self.n(h)))))
            return x + h.permute(0, 3, 1, 2)

    class ConvNextV2(nn.Module):  # 4 images of 64x64: a patchify stem, 3 stages of V2 blocks with channels-first downsampling
        def __init__(self):
            super().__init__()
            self.stem = nn.Conv2d(3, 48, 4, 4)
            self.s = nn.Sequential(V2Block(48), V2Block(48), nn.Conv2d(48, 96, 2, 2), V2Block(96), V2Block(96),
                                   nn.Conv2d(96, 192, 2, 2), V2Block(192))
            self.n, self.fc = nn.LayerNorm(192), nn.Linear(192, 10)

        def forward(self, x):
            return self.fc(self.n(self.s(self.stem(x)).mean((2, 3))))

    class ClipLite(nn.Module):  # 8 images of 64x64 and 8 texts of 32 tokens (from the first channel's values): two towers, a logit matrix
        def __init__(self):
            super().__init__()
            self.img = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1), nn.ReLU(), nn.Conv2d(32, 64, 3, 2, 1), nn.ReLU(),
                                     nn.Conv2d(64, 128, 3, 2, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(128, 128))
            self.emb, self.pos = nn.Embedding(1000, 128), nn.Parameter(torch.randn(1, 32, 128) * 0.02)
            layer = nn.TransformerEncoderLayer(128, 4, 256, batch_first=True, norm_first=True)
            self.txt = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
            self.proj = nn.Linear(128, 128)
            self.scale = nn.Parameter(torch.tensor(2.659))

        def forward(self, x):
            tokens = (x[:, 0, :8, :4].reshape(x.shape[0], 32) * 999).long()
            t = self.proj(self.txt(self.emb(tokens) + self.pos)[:, -1])
            i = self.img(x)
            i, t = i / i.norm(dim=-1, keepdim=True), t / t.norm(dim=-1, keepdim=True)
            return self.scale.exp() * i @ t.t()

    class QatCnn(nn.Module):  # 8 images of 64x64: fake-quantised activations (QuantizeLinear, DequantizeLinear) around each convolution
        def __init__(self):
            super().__init__()
            self.convs = nn.ModuleList([nn.Conv2d(i, o, 3, s, 1) for i, o, s in ((3, 32, 1), (32, 64, 2), (64, 64, 1), (64, 128, 2),
                                                                               (128, 128, 1))])
            self.fc = nn.Linear(128, 10)

        def forward(self, x):
            for conv in self.convs:
                x = torch.fake_quantize_per_tensor_affine(x, 0.05, 0, 0, 255)
                x = F.relu(conv(x))
            return self.fc(torch.fake_quantize_per_tensor_affine(x.mean((2, 3)), 0.05, 0, 0, 255))

    export_nets(torch, out, 149, (("stn_cnn_b16_64", Stn, (16, 3, 64, 64)),
                                  ("vq_vae_b4_64", VqVae, (4, 3, 64, 64)),
                                  ("realnvp_b1024", RealNvp, (1024, 32)),
                                  ("convnext_v2_lite_b4_64", ConvNextV2, (4, 3, 64, 64)),
                                  ("clip_lite_b8", ClipLite, (8, 3, 64, 64)),
                                  ("qat_cnn_b8_64", QatCnn, (8, 3, 64, 64))), opset=16)
    return 0


def export_fiftieth_set(torch, out):
    # Session 39, at its end, after its last change: measured only.
    nn = torch.nn
    F = torch.nn.functional

    class WsConv(nn.Conv2d):  # NFNet's scaled weight standardisation, computed in the graph on every run
        def forward(self, x):
            w = self.weight
            mean = w.mean((1, 2, 3), keepdim=True)
            var = w.var((1, 2, 3), keepdim=True, unbiased=False)
            w = (w - mean) / torch.sqrt(var * w[0].numel() + 1e-4)
            return F.conv2d(x, w, self.bias, self.stride, self.padding)

    class NfBlock(nn.Module):
        def __init__(self, c, beta):
            super().__init__()
            self.beta = beta
            self.c1, self.c2 = WsConv(c, c, 3, 1, 1), WsConv(c, c, 3, 1, 1)
            self.gain = nn.Parameter(torch.zeros(1))

        def forward(self, x):
            h = self.c2(F.gelu(self.c1(F.gelu(x) / self.beta))) * 1.7
            return x + 0.2 * self.gain * h + 0.01 * h

    class NfNet(nn.Module):  # 8 images of 64x64: a normaliser-free ResNet (no BatchNorm), weight-standardised convolutions
        def __init__(self):
            super().__init__()
            self.stem = WsConv(3, 32, 3, 2, 1)
            self.s1 = nn.Sequential(NfBlock(32, 1.0), NfBlock(32, 1.02))
            self.down = WsConv(32, 64, 3, 2, 1)
            self.s2 = nn.Sequential(NfBlock(64, 1.0), NfBlock(64, 1.02))
            self.fc = nn.Linear(64, 10)

        def forward(self, x):
            return self.fc(self.s2(self.down(self.s1(self.stem(x)))).mean((2, 3)))

    class SincConv(nn.Module):  # SincNet's band-pass filters, built from learned cut-offs on every run
        def __init__(self, n, k):
            super().__init__()
            self.low = nn.Parameter(torch.linspace(30, 3000, n)[:, None] / 16000)
            self.band = nn.Parameter(torch.full((n, 1), 100.0 / 16000))
            self.pad = k // 2
            t = torch.arange(-(k // 2), k // 2 + 1).float()
            self.register_buffer("t", t[None] * 2 * 3.14159265)
            self.register_buffer("window", (0.54 - 0.46 * torch.cos(2 * 3.14159265 * torch.arange(k).float() / (k - 1)))[None])

        def forward(self, x):
            low, high = self.low.abs(), self.low.abs() + self.band.abs()
            def lp(f):
                a = f * self.t
                return torch.where(a == 0, 2 * f, torch.sin(a) / (self.t / 2 + (a == 0).float()) / 3.14159265)
            filt = (lp(high) - lp(low)) * self.window
            return F.conv1d(x, filt[:, None, :], stride=1, padding=self.pad)

    class SincNet(nn.Module):  # 4 clips of 8000 samples: 40 sinc filters of 129 taps, pooling, 1-D convolutions, LayerNorm, a classifier
        def __init__(self):
            super().__init__()
            self.sinc = SincConv(40, 129)
            self.net = nn.Sequential(nn.MaxPool1d(3), nn.LeakyReLU(0.2), nn.Conv1d(40, 60, 5), nn.MaxPool1d(3), nn.LeakyReLU(0.2),
                                     nn.Conv1d(60, 60, 5), nn.MaxPool1d(3), nn.LeakyReLU(0.2))
            self.n, self.fc = nn.LayerNorm(60), nn.Linear(60, 10)

        def forward(self, x):  # [4, 1, 8000]
            return self.fc(self.n(self.net(self.sinc(x)).mean(2)))

    class GlowStep(nn.Module):  # ActNorm, an invertible 1x1 convolution, an affine coupling by a small CNN
        def __init__(self, c):
            super().__init__()
            self.loc, self.logs = nn.Parameter(torch.randn(1, c, 1, 1) * 0.1), nn.Parameter(torch.randn(1, c, 1, 1) * 0.1)
            q, _ = torch.linalg.qr(torch.randn(c, c))
            self.w = nn.Parameter(q)
            self.net = nn.Sequential(nn.Conv2d(c // 2, 64, 3, 1, 1), nn.ReLU(), nn.Conv2d(64, 64, 1), nn.ReLU(), nn.Conv2d(64, c, 3, 1, 1))

        def forward(self, x):
            x = (x + self.loc) * torch.exp(self.logs)
            x = F.conv2d(x, self.w[:, :, None, None])
            a, b = x.chunk(2, 1)
            s, t = self.net(a).chunk(2, 1)
            s = torch.sigmoid(s + 2.0)
            return torch.cat([a, (b + t) * s], 1), torch.log(s).sum((1, 2, 3))

    class Glow(nn.Module):  # 4 images of 32x32: squeeze to 12x16x16, 4 steps, squeeze to 48x8x8, 4 steps, the log-likelihood
        def __init__(self):
            super().__init__()
            self.l1 = nn.ModuleList([GlowStep(12) for _ in range(4)])
            self.l2 = nn.ModuleList([GlowStep(48) for _ in range(4)])

        @staticmethod
        def squeeze(x):
            b, c, h, w = x.shape
            return x.view(b, c, h // 2, 2, w // 2, 2).permute(0, 1, 3, 5, 2, 4).reshape(b, c * 4, h // 2, w // 2)

        def forward(self, x):
            ld = torch.zeros(x.shape[0])
            x = self.squeeze(x)
            for s in self.l1:
                x, d = s(x)
                ld = ld + d
            x = self.squeeze(x)
            for s in self.l2:
                x, d = s(x)
                ld = ld + d
            return ld - 0.5 * (x * x).sum((1, 2, 3))

    class KanLayer(nn.Module):  # a Kolmogorov-Arnold layer: each input's degree-1 B-spline basis over 8 knots, weighted, plus a SiLU base
        def __init__(self, i, o, knots=8):
            super().__init__()
            self.register_buffer("grid", torch.linspace(-2, 2, knots))
            self.h = 4.0 / (knots - 1)
            self.spline = nn.Linear(i * knots, o, bias=False)
            self.base = nn.Linear(i, o)

        def forward(self, x):  # [b, i]
            d = (x[:, :, None] - self.grid) / self.h
            basis = torch.clamp(1 - d.abs(), min=0.0)
            return self.base(F.silu(x)) + self.spline(basis.flatten(1))

    class Kan(nn.Module):  # 2048 samples of 16 features: three KAN layers (16 -> 64 -> 64 -> 4)
        def __init__(self):
            super().__init__()
            self.net = nn.Sequential(KanLayer(16, 64), nn.LayerNorm(64), KanLayer(64, 64), nn.LayerNorm(64), KanLayer(64, 4))

        def forward(self, x):
            return self.net(x)

    class DenseBlock(nn.Module):  # ESRGAN's residual dense block: 4 convolutions each over all before, LeakyReLU, scaled by 0.2
        def __init__(self, c, g):
            super().__init__()
            self.convs = nn.ModuleList([nn.Conv2d(c + k * g, g, 3, 1, 1) for k in range(4)])
            self.out = nn.Conv2d(c + 4 * g, c, 3, 1, 1)

        def forward(self, x):
            fs = [x]
            for conv in self.convs:
                fs.append(F.leaky_relu(conv(torch.cat(fs, 1)), 0.2))
            return x + 0.2 * self.out(torch.cat(fs, 1))

    class EsrganLite(nn.Module):  # 2 images of 48x48: 2 residual-in-residual blocks of 3 dense blocks, 4x upsampling by PixelShuffle
        def __init__(self):
            super().__init__()
            self.head = nn.Conv2d(3, 32, 3, 1, 1)
            self.rrdbs = nn.ModuleList([nn.Sequential(*[DenseBlock(32, 16) for _ in range(3)]) for _ in range(2)])
            self.body = nn.Conv2d(32, 32, 3, 1, 1)
            self.up = nn.Sequential(nn.Conv2d(32, 128, 3, 1, 1), nn.PixelShuffle(2), nn.LeakyReLU(0.2),
                                    nn.Conv2d(32, 128, 3, 1, 1), nn.PixelShuffle(2), nn.LeakyReLU(0.2), nn.Conv2d(32, 3, 3, 1, 1))

        def forward(self, x):
            f = self.head(x)
            h = f
            for r in self.rrdbs:
                h = h + 0.2 * r(h)
            return self.up(f + self.body(h))

    class ShiftedWindowBlock(nn.Module):  # Swin's shifted windows: torch.roll, 4x4 windows, a mask for the wrapped ones
        def __init__(self, d, heads, side, win, shift):
            super().__init__()
            self.h, self.dh, self.side, self.win, self.shift = heads, d // heads, side, win, shift
            self.n1, self.qkv, self.o = nn.LayerNorm(d), nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.n2, self.ff = nn.LayerNorm(d), nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
            region = torch.zeros(side, side)
            if shift:
                cuts = (slice(0, -win), slice(-win, -shift), slice(-shift, None))
                k = 0
                for a in cuts:
                    for b in cuts:
                        region[a, b] = k
                        k += 1
            r = region.view(side // win, win, side // win, win).permute(0, 2, 1, 3).reshape(-1, win * win)
            self.register_buffer("mask", (r[:, :, None] != r[:, None, :]).float() * -100.0)

        def forward(self, x):  # [b, side*side, d]
            b, t, d = x.shape
            s, w = self.side, self.win
            h = self.n1(x).view(b, s, s, d)
            if self.shift:
                h = torch.roll(h, (-self.shift, -self.shift), (1, 2))
            h = h.view(b, s // w, w, s // w, w, d).permute(0, 1, 3, 2, 4, 5).reshape(-1, w * w, d)
            q, k, v = self.qkv(h).view(h.shape[0], w * w, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
            att = (q @ k.transpose(-1, -2) / self.dh ** 0.5).view(b, -1, self.h, w * w, w * w) + self.mask[None, :, None]
            att = att.softmax(-1).view(-1, self.h, w * w, w * w)
            h = (att @ v).transpose(1, 2).reshape(b, s // w, s // w, w, w, d).permute(0, 1, 3, 2, 4, 5).reshape(b, s, s, d)
            if self.shift:
                h = torch.roll(h, (self.shift, self.shift), (1, 2))
            x = x + self.o(h.reshape(b, t, d))
            return x + self.ff(self.n2(x))

    class SwinShift(nn.Module):  # 4 images of 64x64: a 4x4 patch embedding, 2 blocks (plain and shifted windows), patch merging, 2 more
        def __init__(self):
            super().__init__()
            self.embed = nn.Conv2d(3, 48, 4, 4)
            self.b1 = nn.Sequential(ShiftedWindowBlock(48, 3, 16, 4, 0), ShiftedWindowBlock(48, 3, 16, 4, 2))
            self.merge = nn.Linear(4 * 48, 96)
            self.b2 = nn.Sequential(ShiftedWindowBlock(96, 3, 8, 4, 0), ShiftedWindowBlock(96, 3, 8, 4, 2))
            self.fc = nn.Linear(96, 10)

        def forward(self, x):
            h = self.b1(self.embed(x).flatten(2).transpose(1, 2))
            b = h.shape[0]
            h = h.view(b, 8, 2, 8, 2, 48).permute(0, 1, 3, 4, 2, 5).reshape(b, 64, 4 * 48)
            return self.fc(self.b2(self.merge(h)).mean(1))

    export_nets(torch, out, 150, (("nfnet_lite_b8_64", NfNet, (8, 3, 64, 64)),
                                  ("sincnet_lite_b4", SincNet, (4, 1, 8000)),
                                  ("glow_lite_b4_32", Glow, (4, 3, 32, 32)),
                                  ("kan_b2048", Kan, (2048, 16)),
                                  ("esrgan_lite_b2_48", EsrganLite, (2, 3, 48, 48)),
                                  ("swin_shift_lite_b4_64", SwinShift, (4, 3, 64, 64))))
    return 0


def export_fifty_first_set(torch, out):
    # Session 40, at its start, before any change: measured only.
    nn = torch.nn
    F = torch.nn.functional

    class Nca(nn.Module):  # 8 grids of 16 channels at 32x32: a neural cellular automaton, 8 steps unrolled
        def __init__(self, c=16, steps=8):
            super().__init__()
            self.c, self.steps = c, steps
            ident = torch.tensor([[0.0, 0, 0], [0, 1, 0], [0, 0, 0]])
            sx = torch.tensor([[-1.0, 0, 1], [-2, 0, 2], [-1, 0, 1]]) / 8
            k = torch.stack([ident, sx, sx.t()])[:, None].repeat(c, 1, 1, 1)  # [3c, 1, 3, 3]
            self.register_buffer("perceive", k)
            self.f1, self.f2 = nn.Conv2d(3 * c, 64, 1), nn.Conv2d(64, c, 1)
            g = torch.Generator().manual_seed(5)
            self.register_buffer("fire", (torch.rand(steps, 1, 1, 32, 32, generator=g) < 0.5).float())

        def forward(self, x):
            for i in range(self.steps):
                alive = F.max_pool2d(x[:, 3:4], 3, 1, 1) > 0.1
                y = F.conv2d(x, self.perceive, padding=1, groups=self.c)
                x = x + self.f2(F.relu(self.f1(y))) * self.fire[i]
                x = x * (alive & (F.max_pool2d(x[:, 3:4], 3, 1, 1) > 0.1)).float()
            return x

    class NBeatsBlock(nn.Module):  # 4 ReLU layers, then coefficients expanded on a fixed basis (or a learned one)
        def __init__(self, back, fore, basis_b=None, basis_f=None, width=256):
            super().__init__()
            self.fc = nn.Sequential(nn.Linear(back, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU(),
                                    nn.Linear(width, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU())
            if basis_b is None:
                self.b, self.f = nn.Linear(width, back), nn.Linear(width, fore)
                self.fixed = False
            else:
                self.register_buffer("bb", basis_b)
                self.register_buffer("bf", basis_f)
                self.theta = nn.Linear(width, basis_b.shape[0], bias=False)
                self.fixed = True

        def forward(self, x):
            h = self.fc(x)
            if self.fixed:
                t = self.theta(h)
                return t @ self.bb, t @ self.bf
            return self.b(h), self.f(h)

    class NBeats(nn.Module):  # 256 series, 96 steps back, 24 ahead: a trend stack, a seasonality stack, a generic one
        def __init__(self, back=96, fore=24):
            super().__init__()
            tb, tf = torch.arange(back).float() / back, (torch.arange(fore).float() + back) / back
            trend = [(torch.stack([tb ** p for p in range(4)]), torch.stack([tf ** p for p in range(4)]))]
            def fourier(t, n):
                return torch.cat([torch.stack([torch.cos(2 * 3.14159265 * k * t) for k in range(n)]),
                                  torch.stack([torch.sin(2 * 3.14159265 * k * t) for k in range(1, n)])])
            season = [(fourier(tb, 8), fourier(tf, 8))]
            self.blocks = nn.ModuleList([NBeatsBlock(back, fore, *trend[0]) for _ in range(3)] +
                                        [NBeatsBlock(back, fore, *season[0]) for _ in range(3)] +
                                        [NBeatsBlock(back, fore) for _ in range(3)])

        def forward(self, x):
            f = 0
            for b in self.blocks:
                bc, fc = b(x)
                x, f = x - bc, f + fc
            return f

    class AxialBlock(nn.Module):  # attention along each column, then along each row, 4 heads, a 1x1 bottleneck round it
        def __init__(self, c, heads=4):
            super().__init__()
            self.h, self.dh = heads, c // heads
            self.inn, self.bn = nn.Conv2d(c, c, 1, bias=False), nn.BatchNorm2d(c)
            self.qkv_h, self.qkv_w = nn.Conv1d(c, 3 * c, 1), nn.Conv1d(c, 3 * c, 1)
            self.out, self.bn2 = nn.Conv2d(c, c, 1, bias=False), nn.BatchNorm2d(c)

        def attend(self, x, qkv):  # x: [n, c, L] -> attention along L
            n, c, l = x.shape
            q, k, v = qkv(x).view(n, 3, self.h, self.dh, l).unbind(1)
            a = torch.softmax(q.transpose(-1, -2) @ k / self.dh ** 0.5, -1)
            return (v @ a.transpose(-1, -2)).reshape(n, c, l)

        def forward(self, x):
            b, c, hh, ww = x.shape
            y = F.relu(self.bn(self.inn(x)))
            y = self.attend(y.permute(0, 3, 1, 2).reshape(b * ww, c, hh), self.qkv_h).view(b, ww, c, hh).permute(0, 2, 3, 1)
            y = self.attend(y.permute(0, 2, 1, 3).reshape(b * hh, c, ww), self.qkv_w).view(b, hh, c, ww).permute(0, 2, 1, 3)
            return F.relu(x + self.bn2(self.out(F.relu(y))))

    class AxialNet(nn.Module):  # 4 images of 64x64: a strided stem to 32 channels at 32x32, 2 axial blocks, down to 64 at 16x16, 2 more
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.ReLU())
            self.s1 = nn.Sequential(AxialBlock(32), AxialBlock(32))
            self.down = nn.Sequential(nn.Conv2d(32, 64, 3, 2, 1), nn.BatchNorm2d(64), nn.ReLU())
            self.s2 = nn.Sequential(AxialBlock(64), AxialBlock(64))
            self.fc = nn.Linear(64, 10)

        def forward(self, x):
            return self.fc(self.s2(self.down(self.s1(self.stem(x)))).mean((2, 3)))

    class XDeepFm(nn.Module):  # 512 samples of 20 categorical fields: a linear part, a compressed interaction network, an MLP
        def __init__(self, fields=20, vocab=1000, d=16):
            super().__init__()
            self.register_buffer("offset", torch.arange(fields) * vocab)
            self.emb, self.lin = nn.Embedding(fields * vocab, d), nn.Embedding(fields * vocab, 1)
            self.cin = nn.ModuleList([nn.Conv1d(fields * fields, 64, 1), nn.Conv1d(fields * 64, 64, 1), nn.Conv1d(fields * 64, 64, 1)])
            self.mlp = nn.Sequential(nn.Linear(fields * d, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, 1))
            self.cin_out = nn.Linear(192, 1)

        def forward(self, ids):  # [b, fields] int64
            ids = ids + self.offset
            x0 = self.emb(ids)  # [b, m, d]
            b, m, d = x0.shape
            xk, pooled = x0, []
            for conv in self.cin:
                z = (x0[:, :, None, :] * xk[:, None, :, :]).reshape(b, m * xk.shape[1], d)
                xk = F.relu(conv(z))
                pooled.append(xk.sum(2))
            logit = self.lin(ids).sum((1, 2)) + self.cin_out(torch.cat(pooled, 1))[:, 0] + self.mlp(x0.flatten(1))[:, 0]
            return torch.sigmoid(logit)

    class GatedConv(nn.Module):  # a gated convolution: ELU(features) x sigmoid(gate), both from one convolution
        def __init__(self, i, o, k=3, s=1, dil=1):
            super().__init__()
            self.c = nn.Conv2d(i, 2 * o, k, s, dil * (k - 1) // 2, dil)

        def forward(self, x):
            f, g = self.c(x).chunk(2, 1)
            return F.elu(f) * torch.sigmoid(g)

    class Inpaint(nn.Module):  # 2 images of 128x128 with a hole mask: gated convolutions, down twice, dilated 2/4/8, up twice
        def __init__(self):
            super().__init__()
            self.enc = nn.Sequential(GatedConv(4, 24, 5), GatedConv(24, 48, 3, 2), GatedConv(48, 48), GatedConv(48, 96, 3, 2),
                                     GatedConv(96, 96), GatedConv(96, 96, dil=2), GatedConv(96, 96, dil=4), GatedConv(96, 96, dil=8),
                                     GatedConv(96, 96))
            self.d1, self.d2 = GatedConv(96, 48), GatedConv(48, 24)
            self.rgb = nn.Conv2d(24, 3, 3, 1, 1)

        def forward(self, x):  # channels: RGB and the mask
            img, mask = x[:, :3], (x[:, 3:] > 0.7).float()
            h = self.enc(torch.cat([img * (1 - mask), mask], 1))
            h = self.d1(F.interpolate(h, scale_factor=2.0, mode="nearest"))
            h = self.d2(F.interpolate(h, scale_factor=2.0, mode="nearest"))
            return img * (1 - mask) + torch.tanh(self.rgb(h)) * mask

    class PatchTst(nn.Module):  # 16 series of 7 channels over 336 steps: RevIN, patches of 16 (stride 8), 3 BatchNorm encoder layers
        def __init__(self, chans=7, length=336, patch=16, stride=8, d=128, fore=96):
            super().__init__()
            self.patch, self.stride = patch, stride
            n = (length - patch) // stride + 2
            self.embed, self.pos = nn.Linear(patch, d), nn.Parameter(torch.randn(1, n, d) * 0.02)
            self.layers = nn.ModuleList([nn.ModuleDict({"qkv": nn.Linear(d, 3 * d), "o": nn.Linear(d, d), "n1": nn.BatchNorm1d(d),
                                                        "ff": nn.Sequential(nn.Linear(d, 256), nn.GELU(), nn.Linear(256, d)),
                                                        "n2": nn.BatchNorm1d(d)}) for _ in range(3)])
            self.head, self.heads = nn.Linear(n * d, fore), 8

        def forward(self, x):  # [b, chans, length]
            b, c, l = x.shape
            mu = x.mean(2, keepdim=True)
            sd = torch.sqrt(x.var(2, keepdim=True, unbiased=False) + 1e-5)
            z = ((x - mu) / sd).reshape(b * c, l)
            z = torch.cat([z, z[:, -1:].expand(-1, self.stride)], 1)  # PatchTST's end padding
            p = z.unfold(1, self.patch, self.stride)  # [b*c, n, patch]
            h = self.embed(p) + self.pos
            bn, n, d = h.shape
            for L in self.layers:
                q, k, v = L["qkv"](h).view(bn, n, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
                a = torch.softmax(q @ k.transpose(-1, -2) / (d // self.heads) ** 0.5, -1)
                h = h + L["o"]((a @ v).transpose(1, 2).reshape(bn, n, d))
                h = L["n1"](h.transpose(1, 2)).transpose(1, 2)
                h = L["n2"]((h + L["ff"](h)).transpose(1, 2)).transpose(1, 2)
            y = self.head(h.flatten(1)).view(b, c, -1)
            return y * sd + mu

    torch.manual_seed(151)
    ids = torch.randint(0, 1000, (512, 20))
    export_nets(torch, out, 151, (("nca_b8_32", Nca, (8, 16, 32, 32)),
                                  ("nbeats_b256", NBeats, (256, 96)),
                                  ("axial_attention_b4_64", AxialNet, (4, 3, 64, 64)),
                                  ("xdeepfm_b512", XDeepFm, ids),
                                  ("gated_conv_inpaint_b2_128", Inpaint, (2, 4, 128, 128)),
                                  ("patchtst_b16", PatchTst, (16, 7, 336))))
    return 0


def export_fifty_second_set(torch, out):
    # Session 40, after its changes: measured only.
    nn = torch.nn
    F = torch.nn.functional

    class EegNet(nn.Module):  # 32 trials of 22 electrodes x 512 samples: EEGNet (temporal conv, depthwise spatial filters x2, separable conv)
        def __init__(self, chans=22, f1=8, d=2, f2=16, classes=4):
            super().__init__()
            self.temporal = nn.Sequential(nn.Conv2d(1, f1, (1, 64), padding=(0, 32), bias=False), nn.BatchNorm2d(f1))
            self.spatial = nn.Sequential(nn.Conv2d(f1, f1 * d, (chans, 1), groups=f1, bias=False), nn.BatchNorm2d(f1 * d), nn.ELU(),
                                         nn.AvgPool2d((1, 4)))
            self.separable = nn.Sequential(nn.Conv2d(f1 * d, f1 * d, (1, 16), padding=(0, 8), groups=f1 * d, bias=False),
                                           nn.Conv2d(f1 * d, f2, 1, bias=False), nn.BatchNorm2d(f2), nn.ELU(), nn.AvgPool2d((1, 8)))
            self.fc = nn.Linear(f2 * 16, classes)

        def forward(self, x):  # [b, 1, chans, t]
            return self.fc(self.separable(self.spatial(self.temporal(x))).flatten(1))

    class C3dLite(nn.Module):  # 2 clips of 8 frames at 64x64: 3-D convolutions and pooling, a classifier
        def __init__(self):
            super().__init__()
            def block(i, o, pool):
                return nn.Sequential(nn.Conv3d(i, o, 3, padding=1), nn.BatchNorm3d(o), nn.ReLU(), nn.MaxPool3d(pool))
            self.f = nn.Sequential(block(3, 16, (1, 2, 2)), block(16, 32, 2), block(32, 64, 2), block(64, 64, 2))
            self.fc = nn.Linear(64, 10)

        def forward(self, x):
            return self.fc(self.f(x).mean((2, 3, 4)))

    class ResStack(nn.Module):  # MelGAN's residual stack: dilated Conv1d with reflection padding, LeakyReLU
        def __init__(self, c):
            super().__init__()
            self.blocks = nn.ModuleList([nn.Sequential(nn.LeakyReLU(0.2), nn.ReflectionPad1d(3 ** k), nn.Conv1d(c, c, 3, dilation=3 ** k),
                                                       nn.LeakyReLU(0.2), nn.Conv1d(c, c, 1)) for k in range(3)])

        def forward(self, x):
            for b in self.blocks:
                x = x + b(x)
            return x

    class MelGanLite(nn.Module):  # 2 mel spectrograms of 80 x 32 frames to audio: upsampling 8, 8, 4 by ConvTranspose1d
        def __init__(self):
            super().__init__()
            layers = [nn.ReflectionPad1d(3), nn.Conv1d(80, 128, 7)]
            c = 128
            for r in (8, 8, 4):
                layers += [nn.LeakyReLU(0.2), nn.ConvTranspose1d(c, c // 2, 2 * r, r, padding=r // 2), ResStack(c // 2)]
                c //= 2
            layers += [nn.LeakyReLU(0.2), nn.ReflectionPad1d(3), nn.Conv1d(c, 1, 7), nn.Tanh()]
            self.net = nn.Sequential(*layers)

        def forward(self, x):
            return self.net(x)

    class DeepSets(nn.Module):  # 256 sets of 64 points in 3-D: an MLP on each point, a sum and a max, an MLP on the set
        def __init__(self):
            super().__init__()
            self.phi = nn.Sequential(nn.Linear(3, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 256))
            self.rho = nn.Sequential(nn.Linear(512, 256), nn.ReLU(), nn.Linear(256, 10))

        def forward(self, x):  # [b, n, 3]
            h = self.phi(x)
            return self.rho(torch.cat([h.sum(1), h.amax(1)], 1))

    class SasRec(nn.Module):  # 128 users' last 50 items: item and position embeddings, 2 causal self-attention blocks, scores of 100 candidates
        def __init__(self, items=5000, d=64, t=50):
            super().__init__()
            self.items, self.pos = nn.Embedding(items, d), nn.Embedding(t, d)
            self.register_buffer("causal", torch.triu(torch.full((t, t), -1e9), 1))
            self.blocks = nn.ModuleList([nn.ModuleDict({"n1": nn.LayerNorm(d), "qkv": nn.Linear(d, 3 * d), "o": nn.Linear(d, d),
                                                        "n2": nn.LayerNorm(d), "ff": nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, d))})
                                         for _ in range(2)])
            self.heads = 2

        def forward(self, ids):  # [b, t + 100]: the history, then the candidates
            hist, cand = ids[:, :50], ids[:, 50:]
            b, t = hist.shape
            h = self.items(hist) * 8.0 + self.pos.weight[None]
            h = h * (hist > 0).float().unsqueeze(-1)
            for B in self.blocks:
                q, k, v = B["qkv"](B["n1"](h)).view(b, t, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
                a = torch.softmax(q @ k.transpose(-1, -2) / 32 ** 0.5 + self.causal, -1)
                h = h + B["o"]((a @ v).transpose(1, 2).reshape(b, t, -1))
                h = h + B["ff"](B["n2"](h))
            return (self.items(cand) * h[:, -1:, :]).sum(-1)

    class HyperNet(nn.Module):  # 512 samples: a task embedding generates a 2-layer MLP's weights, applied by batched products
        def __init__(self, tasks=16, din=32, dh=64, dout=8):
            super().__init__()
            self.din, self.dh, self.dout = din, dh, dout
            self.task = nn.Embedding(tasks, 32)
            self.gen = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, din * dh + dh * dout))

        def forward(self, x):  # [b, 1 + din]: the task id, then the features
            t = x[:, 0].long().clamp(0, 15)
            w = self.gen(self.task(t))
            w1 = w[:, :self.din * self.dh].view(-1, self.din, self.dh)
            w2 = w[:, self.din * self.dh:].view(-1, self.dh, self.dout)
            h = torch.relu(torch.bmm(x[:, None, 1:], w1))
            return torch.bmm(h, w2)[:, 0]

    torch.manual_seed(152)
    ids = torch.randint(1, 5000, (128, 150))
    hx = torch.cat([torch.randint(0, 16, (512, 1)).float(), torch.randn(512, 32)], 1)
    export_nets(torch, out, 152, (("eegnet_b32", EegNet, (32, 1, 22, 512)),
                                  ("c3d_lite_b2_8_64", C3dLite, (2, 3, 8, 64, 64)),
                                  ("melgan_lite_b2", MelGanLite, (2, 80, 32)),
                                  ("deep_sets_b256", DeepSets, (256, 64, 3)),
                                  ("sasrec_b128", SasRec, ids),
                                  ("hypernet_b512", HyperNet, hx)))
    return 0


def export_fifty_third_set(torch, out):
    # Session 41, at its start, before any change: measured only.
    nn = torch.nn
    F = torch.nn.functional

    class RetNet(nn.Module):  # 8 sequences of 128 tokens, width 192: 2 retention layers (decay per head), swish gate, FFN
        def __init__(self, d=192, heads=4, layers=2, t=128):
            super().__init__()
            self.heads = heads
            gammas = 1 - 2.0 ** (-5 - torch.arange(heads, dtype=torch.float32))
            n = torch.arange(t, dtype=torch.float32)
            diff = n[:, None] - n[None, :]
            decay = gammas[:, None, None] ** diff.clamp(min=0) * (diff >= 0).float()
            self.register_buffer("decay", decay / decay.sum(-1, keepdim=True).sqrt())
            self.layers = nn.ModuleList([nn.ModuleDict({"n1": nn.LayerNorm(d), "qkvg": nn.Linear(d, 4 * d, bias=False),
                                                        "gn": nn.GroupNorm(heads, d), "o": nn.Linear(d, d, bias=False),
                                                        "n2": nn.LayerNorm(d), "ff": nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(),
                                                                                                   nn.Linear(2 * d, d))})
                                         for _ in range(layers)])

        def forward(self, x):  # [b, t, d]
            b, t, d = x.shape
            for L in self.layers:
                q, k, v, g = L["qkvg"](L["n1"](x)).chunk(4, -1)
                q, k, v = (z.view(b, t, self.heads, -1).transpose(1, 2) for z in (q, k, v))
                r = ((q @ k.transpose(-1, -2)) * self.decay) @ v  # [b, h, t, dh]
                r = L["gn"](r.transpose(1, 2).reshape(b * t, d, 1)).view(b, t, d)
                x = x + L["o"](F.silu(g) * r)
                x = x + L["ff"](L["n2"](x))
            return x

    class LongConv(nn.Module):  # 8 sequences of 512 steps, 64 channels: 3 blocks of a gated depthwise Conv1d over 128 taps
        def __init__(self, c=64, taps=128, blocks=3):
            super().__init__()
            self.blocks = nn.ModuleList([nn.ModuleDict({"n": nn.BatchNorm1d(c), "in": nn.Conv1d(c, 2 * c, 1),
                                                        "long": nn.Conv1d(c, c, taps, padding=taps - 1, groups=c),
                                                        "out": nn.Conv1d(c, c, 1)}) for _ in range(blocks)])
            self.taps = taps

        def forward(self, x):  # [b, c, t], causal: the first t outputs of the padded convolution
            t = x.shape[-1]
            for B in self.blocks:
                u, gate = B["in"](B["n"](x)).chunk(2, 1)
                y = B["long"](u)[..., :t]
                x = x + B["out"](y * torch.sigmoid(gate))
            return x

    class ColBert(nn.Module):  # 16 queries of 32 tokens against 16 x 8 documents of 180 tokens: a small encoder, max-sim scores
        def __init__(self, vocab=8000, d=128, dim=64):
            super().__init__()
            self.emb = nn.Embedding(vocab, d)
            self.enc = nn.Sequential(nn.Conv1d(d, d, 3, padding=1), nn.GELU(), nn.Conv1d(d, d, 3, padding=1), nn.GELU())
            self.proj = nn.Linear(d, dim, bias=False)

        def encode(self, ids):
            h = self.enc(self.emb(ids).transpose(1, 2)).transpose(1, 2)
            return F.normalize(self.proj(h), dim=-1)

        def forward(self, ids):  # [16, 32 + 8 * 180]
            q = self.encode(ids[:, :32])  # [b, 32, dim]
            docs = self.encode(ids[:, 32:].reshape(-1, 180)).view(ids.shape[0], 8, 180, -1)
            sim = torch.einsum("bqd,bntd->bnqt", q, docs)
            return sim.amax(-1).sum(-1)  # [b, 8]

    class FcosHead(nn.Module):  # 2 images: a 3-level feature pyramid (64x64, 32x32, 16x16, 128 channels), shared GroupNorm towers
        def __init__(self, c=128, classes=20):
            super().__init__()
            def tower():
                return nn.Sequential(*[m for _ in range(2) for m in (nn.Conv2d(c, c, 3, padding=1), nn.GroupNorm(16, c), nn.ReLU())])
            self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1), nn.ReLU(), nn.Conv2d(32, 64, 3, 2, 1), nn.ReLU(),
                                      nn.Conv2d(64, c, 3, 2, 1), nn.ReLU())
            self.down = nn.ModuleList([nn.Conv2d(c, c, 3, 2, 1) for _ in range(2)])
            self.cls_tower, self.box_tower = tower(), tower()
            self.cls, self.box, self.ctr = nn.Conv2d(c, classes, 3, padding=1), nn.Conv2d(c, 4, 3, padding=1), nn.Conv2d(c, 1, 3, padding=1)
            self.scales = nn.Parameter(torch.ones(3))

        def forward(self, x):  # [b, 3, 512, 512]
            f = [self.stem(x)]
            for dn in self.down:
                f.append(torch.relu(dn(f[-1])))
            outs = []
            for i, p in enumerate(f):
                c, r = self.cls_tower(p), self.box_tower(p)
                o = torch.cat([torch.sigmoid(self.cls(c)), torch.exp(self.scales[i] * self.box(r)), torch.sigmoid(self.ctr(r))], 1)
                outs.append(o.flatten(2))
            return torch.cat(outs, 2)

    class CondConv(nn.Module):  # 8 images 64x64: 3 CondConv layers (4 experts mixed per sample, applied by a grouped Conv), pooling
        def __init__(self, experts=4):
            super().__init__()
            self.chans = ((3, 32), (32, 64), (64, 64))
            self.experts = nn.ParameterList([nn.Parameter(torch.randn(experts, o, i, 3, 3) * (2.0 / (9 * i)) ** 0.5) for i, o in self.chans])
            self.route = nn.ModuleList([nn.Linear(i, experts) for i, _ in self.chans])
            self.fc = nn.Linear(64, 10)

        def forward(self, x):
            for (i, o), w, r in zip(self.chans, self.experts, self.route):
                b, _, h, wd = x.shape
                mix = torch.sigmoid(r(x.mean((2, 3))))  # [b, experts]
                k = torch.einsum("be,eoikl->boikl", mix, w).reshape(b * o, i, 3, 3)
                x = F.conv2d(x.reshape(1, b * i, h, wd), k, padding=1, groups=b).view(b, o, h, wd)
                x = F.max_pool2d(torch.relu(x), 2)
            return self.fc(x.mean((2, 3)))

    class Fno1d(nn.Module):  # 16 functions on 256 points: 4 Fourier layers (16 modes by DFT products, complex weights as pairs)
        def __init__(self, width=32, modes=16, n=256, layers=4):
            super().__init__()
            t = torch.arange(n, dtype=torch.float32)
            ang = 2 * torch.pi * torch.arange(modes, dtype=torch.float32)[:, None] * t[None] / n
            self.register_buffer("cos", torch.cos(ang))  # [modes, n]
            self.register_buffer("sin", torch.sin(ang))
            self.lift, self.out = nn.Linear(2, width), nn.Sequential(nn.Linear(width, 128), nn.GELU(), nn.Linear(128, 1))
            self.wr = nn.ParameterList([nn.Parameter(torch.randn(width, width, modes) / width) for _ in range(layers)])
            self.wi = nn.ParameterList([nn.Parameter(torch.randn(width, width, modes) / width) for _ in range(layers)])
            self.pw = nn.ModuleList([nn.Conv1d(width, width, 1) for _ in range(layers)])
            self.n = n

        def forward(self, x):  # [b, n, 2]: the function and the grid
            h = self.lift(x).transpose(1, 2)  # [b, w, n]
            for wr, wi, pw in zip(self.wr, self.wi, self.pw):
                re, im = h @ self.cos.t(), -(h @ self.sin.t())  # [b, w, modes]
                ore = torch.einsum("bim,iom->bom", re, wr) - torch.einsum("bim,iom->bom", im, wi)
                oim = torch.einsum("bim,iom->bom", re, wi) + torch.einsum("bim,iom->bom", im, wr)
                spec = (ore @ self.cos - oim @ self.sin) * (2.0 / self.n)  # back to [b, w, n]
                h = F.gelu(spec + pw(h))
            return self.out(h.transpose(1, 2))

    torch.manual_seed(153)
    ids = torch.randint(0, 8000, (16, 32 + 8 * 180))
    grid = torch.linspace(0, 1, 256)[None, :, None].expand(16, 256, 1)
    fx = torch.cat([torch.randn(16, 256, 1), grid], -1)
    export_nets(torch, out, 153, (("retnet_b8_128", RetNet, (8, 128, 192)),
                                  ("long_conv_b8_512", LongConv, (8, 64, 512)),
                                  ("colbert_maxsim_b16", ColBert, ids),
                                  ("fcos_head_b2_512", FcosHead, (2, 3, 512, 512)),
                                  ("condconv_b8_64", CondConv, (8, 3, 64, 64)),
                                  ("fno1d_b16_256", Fno1d, fx)))
    return 0


def export_fifty_fourth_set(torch, out):
    # Session 42, after its cost-model change (a cold call by distance), before it was measured.
    nn = torch.nn
    F = torch.nn.functional

    class Ghost(nn.Module):  # 8 images 96x96: ghost modules (a 1x1 Conv to half, a 3x3 depthwise for the rest)
        def __init__(self):
            super().__init__()

            def ghost(cin, cout, stride=1):
                half = cout // 2
                return nn.ModuleDict({"p": nn.Sequential(nn.Conv2d(cin, half, 1, stride, bias=False), nn.BatchNorm2d(half), nn.ReLU()),
                                      "c": nn.Sequential(nn.Conv2d(half, half, 3, 1, 1, groups=half, bias=False), nn.BatchNorm2d(half), nn.ReLU())})
            self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.ReLU())
            self.blocks = nn.ModuleList([ghost(16, 32), ghost(32, 48, 2), ghost(48, 48), ghost(48, 96, 2), ghost(96, 96), ghost(96, 160, 2)])
            self.head = nn.Linear(160, 100)

        def forward(self, x):
            x = self.stem(x)
            for b in self.blocks:
                p = b["p"](x)
                y = torch.cat([p, b["c"](p)], 1)
                x = y + x if y.shape == x.shape else y
            return self.head(x.mean((2, 3)))

    class Perceiver(nn.Module):  # 4 inputs of 1024 tokens x 64: 128 latents x 256 cross-attend, then 2 self-attention layers
        def __init__(self, d=256, latents=128):
            super().__init__()
            self.lat = nn.Parameter(torch.randn(latents, d) * 0.02)
            self.inp = nn.Linear(64, d)
            self.cross = nn.MultiheadAttention(d, 1, batch_first=True)
            self.n0 = nn.LayerNorm(d)
            self.selfs = nn.ModuleList([nn.TransformerEncoderLayer(d, 8, 512, 0.0, activation="gelu", batch_first=True, norm_first=True)
                                        for _ in range(2)])
            self.out = nn.Linear(d, 10)

        def forward(self, x):
            kv = self.inp(x)
            q = self.lat.unsqueeze(0).expand(x.shape[0], -1, -1)
            h = q + self.cross(self.n0(q), kv, kv, need_weights=False)[0]
            for layer in self.selfs:
                h = layer(h)
            return self.out(h.mean(1))

    class WaveNet(nn.Module):  # 4 clips of 4096 samples: 10 gated dilated causal layers (dilation 1..512), skips
        def __init__(self, ch=32, skip=64, layers=10):
            super().__init__()
            self.inp = nn.Conv1d(1, ch, 1)
            self.dil = nn.ModuleList([nn.Conv1d(ch, 2 * ch, 2, dilation=2 ** i) for i in range(layers)])
            self.res = nn.ModuleList([nn.Conv1d(ch, ch, 1) for _ in range(layers)])
            self.skp = nn.ModuleList([nn.Conv1d(ch, skip, 1) for _ in range(layers)])
            self.out = nn.Sequential(nn.ReLU(), nn.Conv1d(skip, skip, 1), nn.ReLU(), nn.Conv1d(skip, 256, 1))

        def forward(self, x):
            h = self.inp(x)
            total = 0
            for i, (d, r, s) in enumerate(zip(self.dil, self.res, self.skp)):
                z = d(F.pad(h, (2 ** i, 0)))
                a, b = z.chunk(2, 1)
                g = torch.tanh(a) * torch.sigmoid(b)
                total = total + s(g)
                h = h + r(g)
            return self.out(total)

    class MoE(nn.Module):  # 256 rows of 128: a softmax gate over 8 experts, each a 128-512-128 MLP, all computed
        def __init__(self, d=128, experts=8, hidden=512):
            super().__init__()
            self.gate = nn.Linear(d, experts)
            self.w1 = nn.Parameter(torch.randn(experts, d, hidden) * d ** -0.5)
            self.w2 = nn.Parameter(torch.randn(experts, hidden, d) * hidden ** -0.5)
            self.norm = nn.LayerNorm(d)

        def forward(self, x):  # [n, d]
            p = torch.softmax(self.gate(x), -1)  # [n, e]
            h = F.gelu(torch.einsum("nd,edh->enh", x, self.w1))
            y = torch.einsum("enh,ehd->end", h, self.w2)  # [e, n, d]
            return self.norm(x + torch.einsum("ne,end->nd", p, y))

    class UNet(nn.Module):  # 2 images 128x128: 3 levels down (Conv-BN-ReLU x2, MaxPool), up by ConvTranspose2d, concat skips
        def __init__(self, c=16):
            super().__init__()

            def block(i, o):
                return nn.Sequential(nn.Conv2d(i, o, 3, 1, 1), nn.BatchNorm2d(o), nn.ReLU(), nn.Conv2d(o, o, 3, 1, 1), nn.BatchNorm2d(o), nn.ReLU())
            self.d1, self.d2, self.d3 = block(3, c), block(c, 2 * c), block(2 * c, 4 * c)
            self.mid = block(4 * c, 8 * c)
            self.u3, self.u2, self.u1 = (nn.ConvTranspose2d(8 * c, 4 * c, 2, 2), nn.ConvTranspose2d(4 * c, 2 * c, 2, 2),
                                         nn.ConvTranspose2d(2 * c, c, 2, 2))
            self.b3, self.b2, self.b1 = block(8 * c, 4 * c), block(4 * c, 2 * c), block(2 * c, c)
            self.out = nn.Conv2d(c, 2, 1)

        def forward(self, x):
            a = self.d1(x)
            b = self.d2(F.max_pool2d(a, 2))
            c = self.d3(F.max_pool2d(b, 2))
            m = self.mid(F.max_pool2d(c, 2))
            c = self.b3(torch.cat([self.u3(m), c], 1))
            b = self.b2(torch.cat([self.u2(c), b], 1))
            a = self.b1(torch.cat([self.u1(b), a], 1))
            return self.out(a)

    class Gcn(nn.Module):  # 4 graphs of 512 nodes x 64 features, a dense adjacency (self loops, symmetric norm), 3 layers
        def __init__(self, d=64, hidden=128, classes=16):
            super().__init__()
            self.ws = nn.ModuleList([nn.Linear(d, hidden), nn.Linear(hidden, hidden), nn.Linear(hidden, classes)])

        def forward(self, x):  # [b, n, d + n]: the features and the adjacency's rows
            f, adj = x[..., :64], x[..., 64:]
            adj = (adj > 0.98).float() + torch.eye(adj.shape[-1])
            deg = adj.sum(-1).rsqrt()
            a = deg.unsqueeze(-1) * adj * deg.unsqueeze(-2)
            h = f
            for i, w in enumerate(self.ws):
                h = a @ w(h)
                if i < len(self.ws) - 1:
                    h = F.relu(h)
            return torch.log_softmax(h, -1)

    torch.manual_seed(154)
    graphs = torch.rand(4, 512, 64 + 512)
    export_nets(torch, out, 154, (("ghost_lite_b8_96", Ghost, (8, 3, 96, 96)),
                                  ("perceiver_b4_1024", Perceiver, (4, 1024, 64)),
                                  ("wavenet_b4_4096", WaveNet, (4, 1, 4096)),
                                  ("moe_dense_b256", MoE, (256, 128)),
                                  ("unet_lite_b2_128", UNet, (2, 3, 128, 128)),
                                  ("gcn_dense_b4_512", Gcn, graphs)))
    return 0


def export_fifty_fifth_set(torch, out):
    # Session 43, after its executor changes (Einsum batches, small batched products), before it was measured.
    nn = torch.nn
    F = torch.nn.functional

    class EinsumTransformer(nn.Module):  # 4 sequences of 128 x 192: 3 blocks whose projections and attention are einsums
        def __init__(self, d=192, heads=6, layers=3):
            super().__init__()
            self.h, self.e = heads, d // heads
            self.qkv = nn.ParameterList([nn.Parameter(torch.randn(3, d, heads, d // heads) * d ** -0.5) for _ in range(layers)])
            self.o = nn.ParameterList([nn.Parameter(torch.randn(heads, d // heads, d) * d ** -0.5) for _ in range(layers)])
            self.n1 = nn.ModuleList([nn.LayerNorm(d) for _ in range(layers)])
            self.n2 = nn.ModuleList([nn.LayerNorm(d) for _ in range(layers)])
            self.ff = nn.ModuleList([nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d)) for _ in range(layers)])

        def forward(self, x):  # [b, t, d]
            for qkv, o, n1, n2, ff in zip(self.qkv, self.o, self.n1, self.n2, self.ff):
                h = n1(x)
                q = torch.einsum("btd,dhe->bhte", h, qkv[0])
                k = torch.einsum("btd,dhe->bhte", h, qkv[1])
                v = torch.einsum("btd,dhe->bhte", h, qkv[2])
                a = torch.softmax(torch.einsum("bhte,bhse->bhts", q, k) * self.e ** -0.5, -1)
                x = x + torch.einsum("bhte,hed->btd", torch.einsum("bhts,bhse->bhte", a, v), o)
                x = x + ff(n2(x))
            return x

    class BatchedGin(nn.Module):  # 256 graphs of 16 nodes x 32: 3 GIN layers over dense adjacencies, sum readout
        def __init__(self, d=32, hidden=64, classes=4):
            super().__init__()
            self.mlps = nn.ModuleList([nn.Sequential(nn.Linear(i, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
                                       for i in (d, hidden, hidden)])
            self.eps = nn.Parameter(torch.zeros(3))
            self.out = nn.Linear(hidden, classes)

        def forward(self, x):  # [g, n, d + n]: features and adjacency rows
            h, adj = x[..., :32], (x[..., 32:] > 0.7).float()
            for i, mlp in enumerate(self.mlps):
                h = mlp((1 + self.eps[i]) * h + adj @ h)
            return self.out(h.sum(1))

    class ConvMixer(nn.Module):  # 4 images 64x64: patch 4, 8 blocks of a 9x9 depthwise Conv (residual) and a 1x1 Conv, GELU, BN
        def __init__(self, dim=128, depth=8, k=9, patch=4):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, dim, patch, patch), nn.GELU(), nn.BatchNorm2d(dim))
            self.blocks = nn.ModuleList([nn.ModuleDict({
                "dw": nn.Sequential(nn.Conv2d(dim, dim, k, groups=dim, padding=k // 2), nn.GELU(), nn.BatchNorm2d(dim)),
                "pw": nn.Sequential(nn.Conv2d(dim, dim, 1), nn.GELU(), nn.BatchNorm2d(dim))}) for _ in range(depth)])
            self.head = nn.Linear(dim, 10)

        def forward(self, x):
            x = self.stem(x)
            for b in self.blocks:
                x = b["pw"](x + b["dw"](x))
            return self.head(x.mean((2, 3)))

    class DualPathRnn(nn.Module):  # 2 mixtures as 64 features x 50 chunks of 40 frames: 2 blocks of an intra-chunk
        # bidirectional LSTM and an inter-chunk LSTM, each with a projection, LayerNorm and residual; a mask out
        def __init__(self, d=64, hidden=64, blocks=2):
            super().__init__()
            self.intra = nn.ModuleList([nn.LSTM(d, hidden, batch_first=True, bidirectional=True) for _ in range(blocks)])
            self.ip = nn.ModuleList([nn.Linear(2 * hidden, d) for _ in range(blocks)])
            self.inter = nn.ModuleList([nn.LSTM(d, hidden, batch_first=True) for _ in range(blocks)])
            self.ep = nn.ModuleList([nn.Linear(hidden, d) for _ in range(blocks)])
            self.n1 = nn.ModuleList([nn.LayerNorm(d) for _ in range(blocks)])
            self.n2 = nn.ModuleList([nn.LayerNorm(d) for _ in range(blocks)])
            self.mask = nn.Conv2d(d, 2 * d, 1)

        def forward(self, x):  # [b, d, chunks, frames]
            b, d, s, k = x.shape
            h = x.permute(0, 2, 3, 1)  # [b, s, k, d]
            for intra, ip, inter, ep, n1, n2 in zip(self.intra, self.ip, self.inter, self.ep, self.n1, self.n2):
                y = intra(h.reshape(b * s, k, d))[0]
                h = h + n1(ip(y)).reshape(b, s, k, d)
                z = h.transpose(1, 2).reshape(b * k, s, d)
                z = n2(ep(inter(z)[0])).reshape(b, k, s, d).transpose(1, 2)
                h = h + z
            return torch.sigmoid(self.mask(h.permute(0, 3, 1, 2)))

    class SlotAttention(nn.Module):  # 8 sets of 256 inputs x 64: 6 slots, 3 iterations of attention over slots and a GRU cell
        def __init__(self, d=64, slots=6, iters=3):
            super().__init__()
            self.slots0 = nn.Parameter(torch.randn(1, slots, d) * 0.1)
            self.iters = iters
            self.nin, self.ns, self.nm = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)
            self.q, self.k, self.v = nn.Linear(d, d, bias=False), nn.Linear(d, d, bias=False), nn.Linear(d, d, bias=False)
            self.gru = nn.GRUCell(d, d)
            self.mlp = nn.Sequential(nn.Linear(d, 128), nn.ReLU(), nn.Linear(128, d))

        def forward(self, x):  # [b, n, d]
            b, n, d = x.shape
            x = self.nin(x)
            k, v = self.k(x), self.v(x)
            s = self.slots0.expand(b, -1, -1)
            for _ in range(self.iters):
                q = self.q(self.ns(s))
                attn = torch.softmax(torch.einsum("bnd,bsd->bns", k, q) * d ** -0.5, -1) + 1e-8
                attn = attn / attn.sum(1, keepdim=True)
                upd = torch.einsum("bns,bnd->bsd", attn, v)
                s = self.gru(upd.reshape(-1, d), s.reshape(-1, d)).reshape(b, -1, d)
                s = s + self.mlp(self.nm(s))
            return s

    class T5RelBias(nn.Module):  # 2 sequences of 64 x 256: 2 encoder blocks with a learned relative-position bias by bucket
        def __init__(self, d=256, heads=4, layers=2, buckets=32, t=64):
            super().__init__()
            self.h = heads
            rel = torch.arange(t)[None, :] - torch.arange(t)[:, None]
            sign = (rel > 0).long() * (buckets // 2)
            mag = rel.abs().clamp(max=buckets // 2 - 1)
            self.register_buffer("bucket", sign + mag)  # [t, t] int64
            self.bias = nn.Embedding(buckets, heads)
            self.attn = nn.ModuleList([nn.Linear(d, 3 * d, bias=False) for _ in range(layers)])
            self.proj = nn.ModuleList([nn.Linear(d, d, bias=False) for _ in range(layers)])
            self.n1 = nn.ModuleList([nn.LayerNorm(d) for _ in range(layers)])
            self.n2 = nn.ModuleList([nn.LayerNorm(d) for _ in range(layers)])
            self.ff = nn.ModuleList([nn.Sequential(nn.Linear(d, 4 * d, bias=False), nn.ReLU(), nn.Linear(4 * d, d, bias=False))
                                     for _ in range(layers)])

        def forward(self, x):  # [b, t, d]
            b, t, d = x.shape
            pos = self.bias(self.bucket).permute(2, 0, 1).unsqueeze(0)  # [1, h, t, t]
            for attn, proj, n1, n2, ff in zip(self.attn, self.proj, self.n1, self.n2, self.ff):
                q, k, v = attn(n1(x)).reshape(b, t, 3, self.h, d // self.h).permute(2, 0, 3, 1, 4)
                a = torch.softmax(q @ k.transpose(-1, -2) + pos, -1)
                x = x + proj((a @ v).transpose(1, 2).reshape(b, t, d))
                x = x + ff(n2(x))
            return x

    torch.manual_seed(155)
    graphs = torch.rand(256, 16, 32 + 16)
    export_nets(torch, out, 155, (("einsum_tfm_b4_t128", EinsumTransformer, (4, 128, 192)),
                                  ("gin_batched_b256_n16", BatchedGin, graphs),
                                  ("convmixer_b4_64", ConvMixer, (4, 3, 64, 64)),
                                  ("dprnn_lite_b2", DualPathRnn, (2, 64, 50, 40)),
                                  ("slot_attention_b8_n256", SlotAttention, (8, 256, 64)),
                                  ("t5_relbias_b2_t64", T5RelBias, (2, 64, 256))))
    return 0


def export_fifty_sixth_set(torch, out):
    # Session 45, after session 44's changes (Split epilogue, banks over rows, rnn shapes), before it was measured.
    nn = torch.nn
    F = torch.nn.functional

    class DeepConvLstm(nn.Module):  # 32 windows of 24 steps x 113 sensor channels: 4 temporal Convs (5 x 1), 2 LSTMs
        def __init__(self, sensors=113, filters=64, hidden=128, classes=18):
            super().__init__()
            self.convs = nn.ModuleList([nn.Conv2d(1 if i == 0 else filters, filters, (5, 1)) for i in range(4)])
            self.lstm = nn.LSTM(filters * sensors, hidden, num_layers=2, batch_first=True)
            self.out = nn.Linear(hidden, classes)

        def forward(self, x):  # [b, 1, t, sensors]
            for c in self.convs:
                x = F.relu(c(x))
            b, f, t, s = x.shape
            h = self.lstm(x.permute(0, 2, 1, 3).reshape(b, t, f * s))[0]
            return self.out(h[:, -1])

    class FlashGau(nn.Module):  # 4 sequences of 256 x 256: 4 gated attention units (one head, relu^2 attention)
        def __init__(self, d=256, e=512, s=128, layers=4, t=256):
            super().__init__()
            self.e, self.s, self.t = e, s, t
            self.norms = nn.ModuleList([nn.LayerNorm(d) for _ in range(layers)])
            self.uv = nn.ModuleList([nn.Linear(d, 2 * e + s) for _ in range(layers)])
            self.gamma = nn.Parameter(torch.randn(layers, 2, s) * 0.1 + 1)
            self.beta = nn.Parameter(torch.zeros(layers, 2, s))
            self.o = nn.ModuleList([nn.Linear(e, d) for _ in range(layers)])

        def forward(self, x):  # [b, t, d]
            for i, (n, uv, o) in enumerate(zip(self.norms, self.uv, self.o)):
                u, v, z = torch.split(F.silu(uv(n(x))), [self.e, self.e, self.s], -1)
                q = z * self.gamma[i, 0] + self.beta[i, 0]
                k = z * self.gamma[i, 1] + self.beta[i, 1]
                a = F.relu(q @ k.transpose(1, 2) / self.s ** 0.5) ** 2 / self.t
                x = x + o(u * (a @ v))
            return x

    class ShallowConvNet(nn.Module):  # 16 trials of 22 electrodes x 500 samples: temporal and spatial Convs,
        # squaring, mean pooling over time, log, a dense classifier
        def __init__(self, electrodes=22, filters=40, classes=4):
            super().__init__()
            self.temporal = nn.Conv2d(1, filters, (1, 25))
            self.spatial = nn.Conv2d(filters, filters, (electrodes, 1), bias=False)
            self.bn = nn.BatchNorm2d(filters)
            self.pool = nn.AvgPool2d((1, 75), (1, 15))
            self.out = nn.Linear(filters * 27, classes)

        def forward(self, x):  # [b, 1, electrodes, samples]
            x = self.bn(self.spatial(self.temporal(x)))
            x = torch.log(torch.clamp(self.pool(x * x), min=1e-6))
            return self.out(x.flatten(1))

    class ShiftMlp(nn.Module):  # 8 images 64x64: patch 4, 6 blocks of a spatial shift of four channel groups and an MLP
        def __init__(self, dim=96, depth=6, patch=4):
            super().__init__()
            self.stem = nn.Conv2d(3, dim, patch, patch)
            self.n1 = nn.ModuleList([nn.GroupNorm(1, dim) for _ in range(depth)])
            self.mix = nn.ModuleList([nn.Conv2d(dim, dim, 1) for _ in range(depth)])
            self.n2 = nn.ModuleList([nn.GroupNorm(1, dim) for _ in range(depth)])
            self.mlp = nn.ModuleList([nn.Sequential(nn.Conv2d(dim, 3 * dim, 1), nn.GELU(), nn.Conv2d(3 * dim, dim, 1))
                                      for _ in range(depth)])
            self.head = nn.Linear(dim, 10)

        @staticmethod
        def shift(x):  # each quarter of the channels one pixel right, left, down, up (zeros in)
            a, b, c, d = torch.chunk(x, 4, 1)
            a = F.pad(a[..., :, :-1], (1, 0, 0, 0))
            b = F.pad(b[..., :, 1:], (0, 1, 0, 0))
            c = F.pad(c[..., :-1, :], (0, 0, 1, 0))
            d = F.pad(d[..., 1:, :], (0, 0, 0, 1))
            return torch.cat([a, b, c, d], 1)

        def forward(self, x):
            x = self.stem(x)
            for n1, mix, n2, mlp in zip(self.n1, self.mix, self.n2, self.mlp):
                x = x + mix(self.shift(n1(x)))
                x = x + mlp(n2(x))
            return self.head(x.mean((2, 3)))

    class DecompTransformer(nn.Module):  # 16 series of 96 steps x 7 variables: 2 encoder layers, each followed by a
        # series decomposition (moving average of 25 over a replicate-padded series), a trend projection
        def __init__(self, variables=7, d=64, heads=4, layers=2, horizon=24, kernel=25):
            super().__init__()
            self.k = kernel
            self.embed = nn.Conv1d(variables, d, 3, padding=1, padding_mode="circular")
            self.layers = nn.ModuleList([nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.0, batch_first=True)
                                         for _ in range(layers)])
            self.trend = nn.Linear(96, horizon)
            self.out = nn.Linear(d, variables)

        def decompose(self, x):  # [b, t, d] -> seasonal, trend
            p = (self.k - 1) // 2
            padded = torch.cat([x[:, :1].expand(-1, p, -1), x, x[:, -1:].expand(-1, p, -1)], 1)
            trend = F.avg_pool1d(padded.transpose(1, 2), self.k, 1).transpose(1, 2)
            return x - trend, trend

        def forward(self, x):  # [b, t, variables]
            h = self.embed(x.transpose(1, 2)).transpose(1, 2)
            trend = torch.zeros_like(h)
            for layer in self.layers:
                h, t = self.decompose(layer(h))
                trend = trend + t
            y = self.out(h + trend)  # [b, t, variables]
            return self.trend(y.transpose(1, 2)).transpose(1, 2)

    class CrnEnhancer(nn.Module):  # 2 utterances of 100 frames x 161 bins: 4 strided Conv2d (along frequency), an LSTM
        # over frames, 4 ConvTranspose2d with skip concats, a sigmoid mask
        def __init__(self, ch=(16, 32, 64, 64), hidden=256):
            super().__init__()
            cin = (1,) + ch[:-1]
            self.enc = nn.ModuleList([nn.Conv2d(i, o, (2, 3), (1, 2), padding=(1, 0)) for i, o in zip(cin, ch)])
            self.ebn = nn.ModuleList([nn.BatchNorm2d(o) for o in ch])
            self.lstm = nn.LSTM(ch[-1] * 9, hidden, num_layers=2, batch_first=True)
            self.proj = nn.Linear(hidden, ch[-1] * 9)
            outs = ch[-2::-1] + (1,)
            self.dec = nn.ModuleList([nn.ConvTranspose2d(2 * i, o, (1, 3), (1, 2), output_padding=(0, p))
                                      for i, o, p in zip(ch[::-1], outs, (0, 0, 1, 0))])

        def forward(self, x):  # [b, 1, frames, bins]
            skips = []
            h = x
            for c, bn in zip(self.enc, self.ebn):
                h = F.elu(bn(c(h)[:, :, :-1]))  # causal along frames: drop the padded last row
                skips.append(h)
            b, c, t, f = h.shape
            r = self.proj(self.lstm(h.permute(0, 2, 1, 3).reshape(b, t, c * f))[0])
            h = r.reshape(b, t, c, f).permute(0, 2, 1, 3)
            for i, d in enumerate(self.dec):
                h = d(torch.cat([h, skips[-1 - i]], 1))
                h = F.elu(h) if i < len(self.dec) - 1 else h
            return torch.sigmoid(h) * x

    torch.manual_seed(156)
    export_nets(torch, out, 156, (("deepconvlstm_b32", DeepConvLstm, (32, 1, 24, 113)),
                                  ("flash_gau_b4_t256", FlashGau, (4, 256, 256)),
                                  ("shallowconvnet_b16", ShallowConvNet, (16, 1, 22, 500)),
                                  ("shift_mlp_b8_64", ShiftMlp, (8, 3, 64, 64)),
                                  ("decomp_tfm_b16_l96", DecompTransformer, (16, 96, 7)),
                                  ("crn_enhancer_b2", CrnEnhancer, (2, 1, 100, 161))))
    return 0


def export_fifty_seventh_set(torch, out):
    # Session 46, after session 45's changes (Pad rows, Convs whose rows are channels), before it was measured.
    nn = torch.nn
    F = torch.nn.functional

    class RepLkNet(nn.Module):  # 4 images 64x64: large-kernel blocks (a 31x31 depthwise Conv beside a 5x5 one)
        def __init__(self, dims=(48, 96), kernels=(31, 15), depth=2):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, dims[0], 3, 2, 1), nn.BatchNorm2d(dims[0]), nn.ReLU())
            self.stages = nn.ModuleList()
            for i, (d, k) in enumerate(zip(dims, kernels)):
                blocks = []
                if i > 0:
                    blocks.append(nn.Sequential(nn.Conv2d(dims[i - 1], d, 1), nn.BatchNorm2d(d), nn.ReLU(),
                                                nn.Conv2d(d, d, 3, 2, 1, groups=d), nn.BatchNorm2d(d), nn.ReLU()))
                for _ in range(depth):
                    blocks.append(nn.ModuleDict({
                        "pre": nn.Sequential(nn.BatchNorm2d(d), nn.Conv2d(d, d, 1), nn.ReLU()),
                        "large": nn.Sequential(nn.Conv2d(d, d, k, 1, k // 2, groups=d, bias=False), nn.BatchNorm2d(d)),
                        "small": nn.Sequential(nn.Conv2d(d, d, 5, 1, 2, groups=d, bias=False), nn.BatchNorm2d(d)),
                        "post": nn.Conv2d(d, d, 1),
                        "ffn": nn.Sequential(nn.BatchNorm2d(d), nn.Conv2d(d, 4 * d, 1), nn.GELU(), nn.Conv2d(4 * d, d, 1)),
                    }))
                self.stages.append(nn.ModuleList(blocks))
            self.head = nn.Linear(dims[-1], 100)

        def forward(self, x):
            x = self.stem(x)
            for stage in self.stages:
                for b in stage:
                    if isinstance(b, nn.ModuleDict):
                        h = b["pre"](x)
                        x = x + b["post"](F.relu(b["large"](h) + b["small"](h)))
                        x = x + b["ffn"](x)
                    else:
                        x = b(x)
            return self.head(x.mean((2, 3)))

    class SchNet(nn.Module):  # 16 molecules of 32 atoms (3 coordinates, 8 features): Gaussian distance expansion,
        # filter-generating MLPs, continuous-filter convolutions summed over neighbours, 3 interactions
        def __init__(self, feats=8, d=64, centers=50, cutoff=5.0, blocks=3):
            super().__init__()
            self.register_buffer("mu", torch.linspace(0, cutoff, centers))
            self.gamma, self.cutoff = 10.0, cutoff
            self.embed = nn.Linear(feats, d)
            self.filt = nn.ModuleList([nn.Sequential(nn.Linear(centers, d), nn.Softplus(), nn.Linear(d, d))
                                       for _ in range(blocks)])
            self.inp = nn.ModuleList([nn.Linear(d, d, bias=False) for _ in range(blocks)])
            self.out = nn.ModuleList([nn.Sequential(nn.Linear(d, d), nn.Softplus(), nn.Linear(d, d))
                                      for _ in range(blocks)])
            self.readout = nn.Sequential(nn.Linear(d, d // 2), nn.Softplus(), nn.Linear(d // 2, 1))

        def forward(self, x):  # [b, atoms, 3 + feats]
            pos = x[..., :3] * 4
            h = self.embed(x[..., 3:])
            diff = pos[:, :, None, :] - pos[:, None, :, :]
            dist = torch.sqrt((diff * diff).sum(-1) + 1e-6)  # [b, n, n]
            rbf = torch.exp(-self.gamma * (dist[..., None] - self.mu) ** 2)  # [b, n, n, centers]
            cut = 0.5 * (torch.cos(dist * 3.14159265 / self.cutoff) + 1) * (dist < self.cutoff).float()
            for filt, inp, out in zip(self.filt, self.inp, self.out):
                w = filt(rbf) * cut[..., None]  # [b, n, n, d]
                h = h + out((w * inp(h)[:, None, :, :]).sum(2))
            return self.readout(h).sum(1)

    class MaxVit(nn.Module):  # 2 images 64x64: 2 blocks of an MBConv, window (8x8) and grid (8x8) attention
        def __init__(self, d=64, heads=2, p=8, blocks=2):
            super().__init__()
            self.p, self.heads = p, heads
            self.stem = nn.Sequential(nn.Conv2d(3, d, 3, 2, 1), nn.BatchNorm2d(d), nn.GELU())
            self.mb = nn.ModuleList([nn.Sequential(nn.BatchNorm2d(d), nn.Conv2d(d, 4 * d, 1), nn.GELU(),
                                                   nn.Conv2d(4 * d, 4 * d, 3, 1, 1, groups=4 * d), nn.GELU(),
                                                   nn.Conv2d(4 * d, d, 1)) for _ in range(blocks)])
            self.norms = nn.ModuleList([nn.LayerNorm(d) for _ in range(4 * blocks)])
            self.qkv = nn.ModuleList([nn.Linear(d, 3 * d) for _ in range(2 * blocks)])
            self.proj = nn.ModuleList([nn.Linear(d, d) for _ in range(2 * blocks)])
            self.mlp = nn.ModuleList([nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
                                      for _ in range(2 * blocks)])
            self.head = nn.Linear(d, 10)

        def attend(self, t, i):  # t: [groups, tokens, d]
            g, n, d = t.shape
            q, k, v = self.qkv[i](self.norms[2 * i](t)).reshape(g, n, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
            a = torch.softmax(q @ k.transpose(-1, -2) * (d // self.heads) ** -0.5, -1)
            t = t + self.proj[i]((a @ v).transpose(1, 2).reshape(g, n, d))
            return t + self.mlp[i](self.norms[2 * i + 1](t))

        def forward(self, x):
            x = self.stem(x)
            b, d, hh, ww = x.shape
            p = self.p
            for j, mb in enumerate(self.mb):
                x = x + mb(x)
                # window: p x p neighbours
                t = x.reshape(b, d, hh // p, p, ww // p, p).permute(0, 2, 4, 3, 5, 1).reshape(-1, p * p, d)
                t = self.attend(t, 2 * j)
                x = t.reshape(b, hh // p, ww // p, p, p, d).permute(0, 5, 1, 3, 2, 4).reshape(b, d, hh, ww)
                # grid: a p x p grid of pixels spread over the image
                t = x.reshape(b, d, p, hh // p, p, ww // p).permute(0, 3, 5, 2, 4, 1).reshape(-1, p * p, d)
                t = self.attend(t, 2 * j + 1)
                x = t.reshape(b, hh // p, ww // p, p, p, d).permute(0, 5, 3, 1, 4, 2).reshape(b, d, hh, ww)
            return self.head(x.mean((2, 3)))

    class RnntJoint(nn.Module):  # 4 utterances of 100 frames x 80 mels: an encoder MLP, a 20-label prediction
        # network, the joint network over every frame and label (tanh of their broadcast sum), log-softmax
        def __init__(self, mels=80, d=256, labels=20, vocab=129):
            super().__init__()
            self.enc = nn.Sequential(nn.Linear(mels, d), nn.ReLU(), nn.Linear(d, d))
            self.pred_in = nn.Parameter(torch.randn(1, labels, d) * 0.1)
            self.pred = nn.Sequential(nn.Linear(d, d), nn.Tanh(), nn.Linear(d, d))
            self.fe, self.fp = nn.Linear(d, d), nn.Linear(d, d, bias=False)
            self.out = nn.Linear(d, vocab)

        def forward(self, x):  # [b, frames, mels]
            f = self.fe(self.enc(x))[:, :, None, :]
            g = self.fp(self.pred(self.pred_in))[:, None, :, :]
            return torch.log_softmax(self.out(torch.tanh(f + g)), -1)

    class Qrnn(nn.Module):  # 16 sequences of 64 x 128: 2 quasi-recurrent layers (a width-2 causal Conv1d for the
        # z, f and o gates, fo-pooling step by step), a classifier over the last step
        def __init__(self, d_in=128, d=192, layers=2, classes=8):
            super().__init__()
            self.d = d
            self.convs = nn.ModuleList([nn.Conv1d(d_in if i == 0 else d, 3 * d, 2) for i in range(layers)])
            self.out = nn.Linear(d, classes)

        def forward(self, x):  # [b, t, d_in]
            h = x.transpose(1, 2)
            for conv in self.convs:
                zfo = conv(F.pad(h, (1, 0)))  # [b, 3d, t]
                z, f, o = torch.tanh(zfo[:, :self.d]), torch.sigmoid(zfo[:, self.d:2 * self.d]), torch.sigmoid(zfo[:, 2 * self.d:])
                c = torch.zeros_like(z[:, :, 0])
                hs = []
                for t in range(z.shape[2]):
                    c = f[:, :, t] * c + (1 - f[:, :, t]) * z[:, :, t]
                    hs.append(o[:, :, t] * c)
                h = torch.stack(hs, 2)
            return self.out(h[:, :, -1])

    class InformerDistil(nn.Module):  # 8 series of 96 steps x 7 variables: 3 attention layers, a distilling Conv1d,
        # ELU and strided MaxPool1d halving the length between them
        def __init__(self, variables=7, d=128, heads=4, layers=3):
            super().__init__()
            self.embed = nn.Linear(variables, d)
            self.pos = nn.Parameter(torch.randn(1, 96, d) * 0.02)
            self.layers = nn.ModuleList([nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.0, activation="gelu",
                                                                    batch_first=True) for _ in range(layers)])
            self.distil = nn.ModuleList([nn.Sequential(nn.Conv1d(d, d, 3, padding=1, padding_mode="circular"),
                                                       nn.BatchNorm1d(d), nn.ELU(), nn.MaxPool1d(3, 2, 1))
                                         for _ in range(layers - 1)])
            self.out = nn.Linear(d, variables)

        def forward(self, x):  # [b, t, variables]
            h = self.embed(x) + self.pos
            for i, layer in enumerate(self.layers):
                h = layer(h)
                if i < len(self.distil):
                    h = self.distil[i](h.transpose(1, 2)).transpose(1, 2)
            return self.out(h)

    torch.manual_seed(157)
    export_nets(torch, out, 157, (("replknet_lite_b4_64", RepLkNet, (4, 3, 64, 64)),
                                  ("schnet_b16_n32", SchNet, (16, 32, 11)),
                                  ("maxvit_lite_b2_64", MaxVit, (2, 3, 64, 64)),
                                  ("rnnt_joint_b4", RnntJoint, (4, 100, 80)),
                                  ("qrnn_b16_t64", Qrnn, (16, 64, 128)),
                                  ("informer_distil_b8", InformerDistil, (8, 96, 7))))
    return 0


def export_fifty_eighth_set(torch, out):
    # Session 47, after session 46's changes (large-kernel depthwise Convs, Concat blocks, middle-axis sums),
    # before it was measured.
    nn = torch.nn
    F = torch.nn.functional

    class LinearBn(nn.Module):  # LeViT's Linear followed by BatchNorm1d over every token
        def __init__(self, a, b):
            super().__init__()
            self.l = nn.Linear(a, b, bias=False)
            self.bn = nn.BatchNorm1d(b)

        def forward(self, x):  # [b, n, a]
            return self.bn(self.l(x).flatten(0, 1)).reshape(x.shape[0], x.shape[1], -1)

    class LevitAttention(nn.Module):  # attention with a learned bias per head and relative offset, gathered
        def __init__(self, d, heads, key, res, stride=1, d_out=None):
            super().__init__()
            self.h, self.k, self.res, self.stride = heads, key, res, stride
            self.v = 2 * key
            self.q = LinearBn(d, heads * key)
            self.kv = LinearBn(d, heads * (key + self.v))
            self.proj = LinearBn(heads * self.v, d_out or d)
            pts = [(i, j) for i in range(res) for j in range(res)]
            qpts = [(i, j) for i in range(0, res, stride) for j in range(0, res, stride)]
            offsets, idx = {}, []
            for p in qpts:
                for q in pts:
                    o = (abs(p[0] - q[0]), abs(p[1] - q[1]))
                    idx.append(offsets.setdefault(o, len(offsets)))
            self.bias = nn.Parameter(torch.randn(heads, len(offsets)) * 0.1)
            self.register_buffer("idx", torch.tensor(idx, dtype=torch.long).view(len(qpts), len(pts)))

        def forward(self, x):  # [b, res*res, d]
            b, n, _ = x.shape
            kv = self.kv(x).view(b, n, self.h, self.k + self.v).transpose(1, 2)
            k, v = kv[..., :self.k], kv[..., self.k:]
            if self.stride > 1:
                r = self.res
                x = x.view(b, r, r, -1)[:, ::self.stride, ::self.stride].reshape(b, -1, x.shape[-1])
            q = self.q(x).view(b, x.shape[1], self.h, self.k).transpose(1, 2)
            a = (q @ k.transpose(-2, -1)) * self.k ** -0.5 + self.bias[:, self.idx]
            y = (a.softmax(-1) @ v).transpose(1, 2).reshape(b, x.shape[1], -1)
            return self.proj(F.hardswish(y))

    class Levit(nn.Module):  # 4 images 64x64: a Hardswish Conv stem to 8x8 tokens, two stages, shrinking attention
        def __init__(self, dims=(96, 160), heads=(3, 5), depth=2):
            super().__init__()
            c = dims[0]
            self.stem = nn.Sequential(nn.Conv2d(3, c // 4, 3, 2, 1), nn.BatchNorm2d(c // 4), nn.Hardswish(),
                                      nn.Conv2d(c // 4, c // 2, 3, 2, 1), nn.BatchNorm2d(c // 2), nn.Hardswish(),
                                      nn.Conv2d(c // 2, c, 3, 2, 1), nn.BatchNorm2d(c))
            blocks = []
            res = 8
            for s, (d, h) in enumerate(zip(dims, heads)):
                if s > 0:
                    blocks.append(("down", LevitAttention(dims[s - 1], 2 * dims[s - 1] // 16, 16, res, 2, d)))
                    res //= 2
                for _ in range(depth):
                    blocks.append(("attn", LevitAttention(d, h, 16, res)))
                    blocks.append(("mlp", nn.Sequential(LinearBn(d, 2 * d), nn.Hardswish(), LinearBn(2 * d, d))))
            self.kinds = [k for k, _ in blocks]
            self.blocks = nn.ModuleList([m for _, m in blocks])
            self.head = nn.Sequential(nn.BatchNorm1d(dims[-1]), nn.Linear(dims[-1], 100))

        def forward(self, x):
            x = self.stem(x).flatten(2).transpose(1, 2)
            for kind, m in zip(self.kinds, self.blocks):
                x = m(x) if kind == "down" else x + m(x)
            return self.head(x.mean(1))

    class Esim(nn.Module):  # 16 sentence pairs of 32 tokens (one int64 input [b, 64]: premise then hypothesis)
        def __init__(self, vocab=8000, e=128, h=128, classes=3):
            super().__init__()
            self.emb = nn.Embedding(vocab, e)
            self.enc = nn.LSTM(e, h, batch_first=True, bidirectional=True)
            self.proj = nn.Sequential(nn.Linear(8 * h, h), nn.ReLU())
            self.comp = nn.LSTM(h, h, batch_first=True, bidirectional=True)
            self.cls = nn.Sequential(nn.Linear(8 * h, h), nn.Tanh(), nn.Linear(h, classes))

        def forward(self, t):
            a, _ = self.enc(self.emb(t[:, :32]))
            b, _ = self.enc(self.emb(t[:, 32:]))
            s = a @ b.transpose(1, 2)
            at = s.softmax(2) @ b
            bt = s.softmax(1).transpose(1, 2) @ a
            ma = self.proj(torch.cat([a, at, a - at, a * at], 2))
            mb = self.proj(torch.cat([b, bt, b - bt, b * bt], 2))
            va, _ = self.comp(ma)
            vb, _ = self.comp(mb)
            v = torch.cat([va.mean(1), va.amax(1), vb.mean(1), vb.amax(1)], 1)
            return self.cls(v)

    class Mpnn(nn.Module):  # one graph of 2048 nodes and 16384 fixed edges: edge MLPs over both endpoints'
        # gathered features, scatter-add onto the receivers, GRU-free update MLPs, 3 rounds, a mean readout
        def __init__(self, nodes=2048, edges=16384, feats=32, d=64, rounds=3):
            super().__init__()
            g = torch.Generator().manual_seed(58)
            self.register_buffer("src", torch.randint(0, nodes, (edges,), generator=g))
            self.register_buffer("dst", torch.randint(0, nodes, (edges,), generator=g))
            self.register_buffer("dist", torch.rand(edges, 1, generator=g))
            self.inp = nn.Linear(feats, d)
            self.msg = nn.ModuleList([nn.Sequential(nn.Linear(2 * d + 1, d), nn.SiLU(), nn.Linear(d, d))
                                      for _ in range(rounds)])
            self.upd = nn.ModuleList([nn.Sequential(nn.Linear(2 * d, d), nn.SiLU(), nn.Linear(d, d))
                                      for _ in range(rounds)])
            self.norm = nn.ModuleList([nn.LayerNorm(d) for _ in range(rounds)])
            self.out = nn.Linear(d, 8)

        def forward(self, x):  # [nodes, feats]
            h = self.inp(x)
            for msg, upd, norm in zip(self.msg, self.upd, self.norm):
                m = msg(torch.cat([h[self.src], h[self.dst], self.dist], 1))
                agg = torch.zeros_like(h).scatter_add(0, self.dst.unsqueeze(1).expand(-1, h.shape[1]), m)
                h = norm(h + upd(torch.cat([h, agg], 1)))
            return self.out(h.mean(0, keepdim=True))

    class DeepSpeech2(nn.Module):  # 4 utterances of 200 frames x 80 mel bins: two Conv2d with clipped ReLU,
        # two bidirectional GRU layers, per-frame log-softmax over 29 characters
        def __init__(self, mels=80, h=192, chars=29):
            super().__init__()
            self.conv = nn.Sequential(nn.Conv2d(1, 32, (11, 41), (2, 2), (5, 20)), nn.BatchNorm2d(32),
                                      nn.Hardtanh(0, 20),
                                      nn.Conv2d(32, 32, (11, 21), (1, 2), (5, 10)), nn.BatchNorm2d(32),
                                      nn.Hardtanh(0, 20))
            self.rnn = nn.GRU(32 * (mels // 4), h, num_layers=2, batch_first=True, bidirectional=True)
            self.out = nn.Linear(2 * h, chars)

        def forward(self, x):  # [b, t, mels]
            y = self.conv(x.unsqueeze(1))  # [b, 32, t/2, mels/4]
            y = y.permute(0, 2, 1, 3).flatten(2)
            y, _ = self.rnn(y)
            return self.out(y).log_softmax(-1)

    class Nhits(nn.Module):  # 64 series of 512 steps, horizon 96: three stacks pooling the input at 16, 4 and 1,
        # MLPs predicting a few coefficients, interpolated linearly to the horizon; residual backcasts
        def __init__(self, length=512, horizon=96, pools=(16, 4, 1), coefs=(8, 24, 96), d=256):
            super().__init__()
            self.length, self.horizon = length, horizon
            self.pools = pools
            self.coefs = coefs
            self.mlps = nn.ModuleList([nn.Sequential(nn.Linear(length // p, d), nn.ReLU(), nn.Linear(d, d), nn.ReLU(),
                                                     nn.Linear(d, c + length // p)) for p, c in zip(pools, coefs)])

        def forward(self, x):  # [b, length]
            res, fc = x, 0
            for p, c, mlp in zip(self.pools, self.coefs, self.mlps):
                pooled = F.max_pool1d(res.unsqueeze(1), p, p).squeeze(1) if p > 1 else res
                theta = mlp(pooled)
                back = F.interpolate(theta[:, c:].unsqueeze(1), size=self.length, mode="linear",
                                     align_corners=False).squeeze(1)
                fc = fc + F.interpolate(theta[:, :c].unsqueeze(1), size=self.horizon, mode="linear",
                                        align_corners=False).squeeze(1)
                res = res - back
            return fc

    class PointPillars(nn.Module):  # 2 scenes of 1024 pillars x 32 points x 9 features: a PointNet layer,
        # max over each pillar's points, the pillars scattered into a 96x96 canvas by fixed cells, a 2-D
        # backbone (strided blocks, ConvTranspose2d upsampling, concat) and a detection head
        def __init__(self, pillars=1024, grid=96, c=64):
            super().__init__()
            g = torch.Generator().manual_seed(580)
            self.register_buffer("cells", torch.randperm(grid * grid, generator=g)[:pillars])
            self.grid, self.c = grid, c
            self.pfn = nn.Linear(9, c, bias=False)
            self.pbn = nn.BatchNorm1d(c)

            def block(i, o, s, n):
                layers = [nn.Conv2d(i, o, 3, s, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU()]
                for _ in range(n):
                    layers += [nn.Conv2d(o, o, 3, 1, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU()]
                return nn.Sequential(*layers)

            self.b1, self.b2, self.b3 = block(c, 64, 2, 2), block(64, 128, 2, 3), block(128, 256, 2, 3)
            self.u1 = nn.Sequential(nn.ConvTranspose2d(64, 128, 1, 1), nn.BatchNorm2d(128), nn.ReLU())
            self.u2 = nn.Sequential(nn.ConvTranspose2d(128, 128, 2, 2), nn.BatchNorm2d(128), nn.ReLU())
            self.u3 = nn.Sequential(nn.ConvTranspose2d(256, 128, 4, 4), nn.BatchNorm2d(128), nn.ReLU())
            self.cls = nn.Conv2d(384, 2 * 3, 1)
            self.box = nn.Conv2d(384, 2 * 7, 1)

        def forward(self, x):  # [b, pillars, points, 9]
            b, p, n, _ = x.shape
            f = F.relu(self.pbn(self.pfn(x).reshape(-1, self.c)).reshape(b, p, n, self.c)).amax(2)  # [b, p, c]
            canvas = torch.zeros(b, self.c, self.grid * self.grid)
            canvas = canvas.scatter(2, self.cells.view(1, 1, -1).expand(b, self.c, -1), f.transpose(1, 2))
            canvas = canvas.view(b, self.c, self.grid, self.grid)
            x1 = self.b1(canvas)
            x2 = self.b2(x1)
            x3 = self.b3(x2)
            y = torch.cat([self.u1(x1), self.u2(x2), self.u3(x3)], 1)
            return torch.cat([self.cls(y).flatten(1), self.box(y).flatten(1)], 1)

    torch.manual_seed(158)
    export_nets(torch, out, 158, (("levit_lite_b4_64", Levit, (4, 3, 64, 64)),
                                  ("esim_b16_t32", Esim, torch.randint(0, 8000, (16, 64))),
                                  ("mpnn_scatter_n2048", Mpnn, (2048, 32)),
                                  ("deepspeech2_lite_b4", DeepSpeech2, (4, 200, 80)),
                                  ("nhits_b64", Nhits, (64, 512)),
                                  ("pointpillars_lite_b2", PointPillars, (2, 1024, 32, 9))), opset=16)
    return 0



def export_fifty_ninth_set(torch, out):
    # Session 48, after session 47's changes (padded Convs, ScatterElements by rows), before it was measured.
    nn = torch.nn
    F = torch.nn.functional

    class Fire(nn.Module):
        def __init__(self, i, s, e):
            super().__init__()
            self.s = nn.Conv2d(i, s, 1)
            self.e1 = nn.Conv2d(s, e, 1)
            self.e3 = nn.Conv2d(s, e, 3, padding=1)

        def forward(self, x):
            x = F.relu(self.s(x))
            return torch.cat([F.relu(self.e1(x)), F.relu(self.e3(x))], 1)

    class SqueezeNet(nn.Module):  # 8 images 96x96, SqueezeNet 1.1 layout, ceil-mode pools, a Conv classifier
        def __init__(self, classes=100):
            super().__init__()
            self.f = nn.Sequential(nn.Conv2d(3, 64, 3, 2), nn.ReLU(), nn.MaxPool2d(3, 2, ceil_mode=True),
                                   Fire(64, 16, 64), Fire(128, 16, 64), nn.MaxPool2d(3, 2, ceil_mode=True),
                                   Fire(128, 32, 128), Fire(256, 32, 128), nn.MaxPool2d(3, 2, ceil_mode=True),
                                   Fire(256, 48, 192), Fire(384, 48, 192), Fire(384, 64, 256), Fire(512, 64, 256))
            self.c = nn.Sequential(nn.Dropout(0.5), nn.Conv2d(512, classes, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))

        def forward(self, x):
            return self.c(self.f(x)).flatten(1)

    class SrAttention(nn.Module):  # keys and values from the tokens reduced by a strided Conv and LayerNorm
        def __init__(self, d, heads, sr):
            super().__init__()
            self.h, self.sr = heads, sr
            self.q = nn.Linear(d, d)
            self.kv = nn.Linear(d, 2 * d)
            self.proj = nn.Linear(d, d)
            if sr > 1:
                self.red = nn.Conv2d(d, d, sr, sr)
                self.norm = nn.LayerNorm(d)

        def forward(self, x, hw):
            b, n, d = x.shape
            q = self.q(x).view(b, n, self.h, d // self.h).transpose(1, 2)
            if self.sr > 1:
                y = self.red(x.transpose(1, 2).reshape(b, d, hw, hw)).flatten(2).transpose(1, 2)
                y = self.norm(y)
            else:
                y = x
            kv = self.kv(y).view(b, -1, 2, self.h, d // self.h).permute(2, 0, 3, 1, 4)
            a = (q @ kv[0].transpose(-2, -1)) * (d // self.h) ** -0.5
            o = (a.softmax(-1) @ kv[1]).transpose(1, 2).reshape(b, n, d)
            return self.proj(o)

    class PvtBlock(nn.Module):
        def __init__(self, d, heads, sr):
            super().__init__()
            self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.a = SrAttention(d, heads, sr)
            self.m = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

        def forward(self, x, hw):
            x = x + self.a(self.n1(x), hw)
            return x + self.m(self.n2(x))

    class Pvt(nn.Module):  # 4 images 64x64: four stages of patch embedding (Conv) and SR attention
        def __init__(self, dims=(32, 64, 128, 192), heads=(1, 2, 4, 6), srs=(8, 4, 2, 1), classes=100):
            super().__init__()
            self.embeds = nn.ModuleList()
            self.stages = nn.ModuleList()
            prev = 3
            for i, (d, h, sr) in enumerate(zip(dims, heads, srs)):
                k = 4 if i == 0 else 2
                self.embeds.append(nn.Sequential(nn.Conv2d(prev, d, k, k)))
                self.stages.append(nn.ModuleList([PvtBlock(d, h, sr), PvtBlock(d, h, sr)]))
                prev = d
            self.norm = nn.LayerNorm(dims[-1])
            self.head = nn.Linear(dims[-1], classes)

        def forward(self, x):
            b = x.shape[0]
            for embed, blocks in zip(self.embeds, self.stages):
                x = embed(x)
                hw = x.shape[-1]
                x = x.flatten(2).transpose(1, 2)
                for blk in blocks:
                    x = blk(x, hw)
                x = x.transpose(1, 2).reshape(b, -1, hw, hw)
            return self.head(self.norm(x.flatten(2).mean(2)))

    class Highway(nn.Module):
        def __init__(self, d, layers=2):
            super().__init__()
            self.t = nn.ModuleList([nn.Linear(d, d) for _ in range(layers)])
            self.g = nn.ModuleList([nn.Linear(d, d) for _ in range(layers)])

        def forward(self, x):
            for t, g in zip(self.t, self.g):
                gate = torch.sigmoid(g(x))
                x = gate * F.relu(t(x)) + (1 - gate) * x
            return x

    class Bidaf(nn.Module):  # 8 pairs: a 96-token context and a 16-token query, words and 12 characters each
        # (one int64 input [b, 112, 13]: word id then character ids)
        def __init__(self, words=6000, chars=100, we=96, ce=16, cf=32, h=64):
            super().__init__()
            self.wemb = nn.Embedding(words, we)
            self.cemb = nn.Embedding(chars, ce)
            self.ccnn = nn.Conv1d(ce, cf, 5, padding=2)
            self.hw = Highway(we + cf)
            self.ctx = nn.LSTM(we + cf, h, batch_first=True, bidirectional=True)
            self.w = nn.Linear(6 * h, 1, bias=False)
            self.model = nn.LSTM(8 * h, h, batch_first=True, bidirectional=True)
            self.start, self.end = nn.Linear(10 * h, 1), nn.Linear(10 * h, 1)

        def embed(self, t):  # [b, n, 13]
            b, n, _ = t.shape
            c = self.cemb(t[:, :, 1:]).reshape(b * n, 12, -1).transpose(1, 2)
            c = F.relu(self.ccnn(c)).amax(2).reshape(b, n, -1)
            x = self.hw(torch.cat([self.wemb(t[:, :, 0]), c], 2))
            return self.ctx(x)[0]

        def forward(self, t):
            c, q = self.embed(t[:, :96]), self.embed(t[:, 96:])  # [b, 96, 2h], [b, 16, 2h]
            n, m = c.shape[1], q.shape[1]
            ce = c.unsqueeze(2).expand(-1, -1, m, -1)
            qe = q.unsqueeze(1).expand(-1, n, -1, -1)
            s = self.w(torch.cat([ce, qe, ce * qe], 3)).squeeze(3)  # [b, n, m]
            c2q = s.softmax(2) @ q
            q2c = (s.amax(2).softmax(1).unsqueeze(1) @ c).expand(-1, n, -1)
            g = torch.cat([c, c2q, c * c2q, c * q2c], 2)
            mo = self.model(g)[0]
            gm = torch.cat([g, mo], 2)
            return torch.stack([self.start(gm).squeeze(2), self.end(gm).squeeze(2)], 1).log_softmax(2)

    class GptStep(nn.Module):  # one decoding step for 4 sequences with 128 cached tokens: one input [b, 1, d]
        # of embedded tokens, the past keys and values as buffers, outputs the logits and the new cache
        def __init__(self, d=256, heads=4, layers=4, past=128, vocab=4000):
            super().__init__()
            self.h, self.layers = heads, layers
            self.register_buffer("pk", torch.randn(layers, 4, heads, past, d // heads) * 0.5)
            self.register_buffer("pv", torch.randn(layers, 4, heads, past, d // heads) * 0.5)
            self.ln1 = nn.ModuleList([nn.LayerNorm(d) for _ in range(layers)])
            self.ln2 = nn.ModuleList([nn.LayerNorm(d) for _ in range(layers)])
            self.qkv = nn.ModuleList([nn.Linear(d, 3 * d) for _ in range(layers)])
            self.o = nn.ModuleList([nn.Linear(d, d) for _ in range(layers)])
            self.mlp = nn.ModuleList([nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
                                      for _ in range(layers)])
            self.lnf = nn.LayerNorm(d)
            self.lm = nn.Linear(d, vocab, bias=False)

        def forward(self, x):  # [b, 1, d]
            b, _, d = x.shape
            ks, vs = [], []
            for i in range(self.layers):
                q, k, v = self.qkv[i](self.ln1[i](x)).split(d, 2)
                q, k, v = (t.view(b, 1, self.h, d // self.h).transpose(1, 2) for t in (q, k, v))
                k = torch.cat([self.pk[i], k], 2)
                v = torch.cat([self.pv[i], v], 2)
                ks.append(k)
                vs.append(v)
                a = ((q @ k.transpose(-2, -1)) * (d // self.h) ** -0.5).softmax(-1)
                x = x + self.o[i]((a @ v).transpose(1, 2).reshape(b, 1, d))
                x = x + self.mlp[i](self.ln2[i](x))
            logits = self.lm(self.lnf(x))
            return logits, torch.stack(ks), torch.stack(vs)

    def cbs(i, o, k=1, s=1):
        return nn.Sequential(nn.Conv2d(i, o, k, s, k // 2, bias=False), nn.BatchNorm2d(o), nn.SiLU())

    class Csp(nn.Module):
        def __init__(self, i, o, n):
            super().__init__()
            h = o // 2
            self.a, self.b = cbs(i, h), cbs(i, h)
            self.m = nn.Sequential(*[nn.Sequential(cbs(h, h), cbs(h, h, 3)) for _ in range(n)])
            self.c = cbs(2 * h, o)

        def forward(self, x):
            return self.c(torch.cat([self.m(self.a(x)), self.b(x)], 1))

    class Yolox(nn.Module):  # 2 images 128x128: Focus slicing, a CSP backbone, a small PAN, a decoupled head
        def __init__(self, w=(16, 32, 64, 128), classes=20):
            super().__init__()
            self.stem = cbs(12, w[0], 3)
            self.d1 = nn.Sequential(cbs(w[0], w[1], 3, 2), Csp(w[1], w[1], 1))
            self.d2 = nn.Sequential(cbs(w[1], w[2], 3, 2), Csp(w[2], w[2], 2))
            self.d3 = nn.Sequential(cbs(w[2], w[3], 3, 2), Csp(w[3], w[3], 1))
            self.lat = cbs(w[3], w[2])
            self.up = Csp(2 * w[2], w[2], 1)
            self.heads = nn.ModuleList()
            for c in (w[2], w[2]):
                self.heads.append(nn.ModuleDict({
                    "stem": cbs(c, 64), "cls": nn.Sequential(cbs(64, 64, 3), nn.Conv2d(64, classes, 1)),
                    "reg": nn.Sequential(cbs(64, 64, 3)), "box": nn.Conv2d(64, 4, 1), "obj": nn.Conv2d(64, 1, 1)}))

        def forward(self, x):
            x = torch.cat([x[..., ::2, ::2], x[..., 1::2, ::2], x[..., ::2, 1::2], x[..., 1::2, 1::2]], 1)
            x2 = self.d2(self.d1(self.stem(x)))
            x3 = self.lat(self.d3(x2))
            p2 = self.up(torch.cat([F.interpolate(x3, scale_factor=2.0, mode="nearest"), x2], 1))
            outs = []
            for hd, f in zip(self.heads, (p2, x3)):
                s = hd["stem"](f)
                r = hd["reg"](s)
                y = torch.cat([hd["box"](r), hd["obj"](r).sigmoid(), hd["cls"](s).sigmoid()], 1)
                outs.append(y.flatten(2))
            return torch.cat(outs, 2).transpose(1, 2)

    class Postnet(nn.Module):  # 4 utterances of 400 frames x 80 mel bins: five 5-tap Conv1d with BatchNorm
        # (tanh on all but the last), added back to the input
        def __init__(self, mels=80, c=256):
            super().__init__()
            layers = []
            for i in range(5):
                layers += [nn.Conv1d(mels if i == 0 else c, mels if i == 4 else c, 5, padding=2),
                           nn.BatchNorm1d(mels if i == 4 else c)]
                if i < 4:
                    layers.append(nn.Tanh())
            self.net = nn.Sequential(*layers)

        def forward(self, x):  # [b, mels, frames]
            return x + self.net(x)

    torch.manual_seed(159)
    tokens = torch.cat([torch.randint(0, 6000, (8, 112, 1)), torch.randint(0, 100, (8, 112, 12))], 2)
    export_nets(torch, out, 159, (("squeezenet_b8_96", SqueezeNet, (8, 3, 96, 96)),
                                  ("pvt_lite_b4_64", Pvt, (4, 3, 64, 64)),
                                  ("bidaf_lite_b8", Bidaf, tokens),
                                  ("gpt_kvstep_b4_p128", GptStep, (4, 1, 256)),
                                  ("yolox_lite_b2_128", Yolox, (2, 3, 128, 128)),
                                  ("tacotron_postnet_b4", Postnet, (4, 80, 400))), opset=16)
    return 0


def export_sixtieth_set(torch, out):
    # Session 49, after session 48's change (a recurrent cell's input projection on the GEMM model), before
    # it was measured.
    nn = torch.nn
    F = torch.nn.functional

    def cbr(i, o, k, s=1, p=None):
        if isinstance(k, int):
            k = (k, k)
        pad = p if p is not None else (k[0] // 2, k[1] // 2)
        return nn.Sequential(nn.Conv2d(i, o, k, s, pad, bias=False), nn.BatchNorm2d(o), nn.ReLU())

    class InceptionC(nn.Module):  # Inception-v3's factorised 1x7 / 7x1 block, an average-pool branch
        def __init__(self, i, c7):
            super().__init__()
            self.b1 = cbr(i, 96, 1)
            self.b7 = nn.Sequential(cbr(i, c7, 1), cbr(c7, c7, (1, 7)), cbr(c7, 96, (7, 1)))
            self.b77 = nn.Sequential(cbr(i, c7, 1), cbr(c7, c7, (7, 1)), cbr(c7, c7, (1, 7)),
                                     cbr(c7, c7, (7, 1)), cbr(c7, 96, (1, 7)))
            self.bp = cbr(i, 96, 1)

        def forward(self, x):
            return torch.cat([self.b1(x), self.b7(x), self.b77(x),
                              self.bp(F.avg_pool2d(x, 3, 1, 1, count_include_pad=False))], 1)

    class InceptionLite(nn.Module):  # 4 images 96x96: a strided stem, max pools, three factorised blocks
        def __init__(self, classes=200):
            super().__init__()
            self.stem = nn.Sequential(cbr(3, 32, 3, 2, 0), cbr(32, 32, 3, 1, 0), cbr(32, 64, 3),
                                      nn.MaxPool2d(3, 2), cbr(64, 80, 1), cbr(80, 192, 3, 1, 0), nn.MaxPool2d(3, 2))
            self.blocks = nn.Sequential(InceptionC(192, 64), InceptionC(384, 80), InceptionC(384, 96))
            self.fc = nn.Linear(384, classes)

        def forward(self, x):
            return self.fc(self.blocks(self.stem(x)).mean((2, 3)))

    class FtTransformer(nn.Module):  # 256 rows of 24 numeric features: a token a feature (value times a
        # vector plus a bias), a CLS token, 3 pre-norm encoder layers, a head on CLS
        def __init__(self, feats=24, d=64, heads=8, layers=3):
            super().__init__()
            self.w = nn.Parameter(torch.randn(feats, d) * 0.3)
            self.b = nn.Parameter(torch.randn(feats, d) * 0.1)
            self.cls = nn.Parameter(torch.randn(1, 1, d) * 0.1)
            layer = nn.TransformerEncoderLayer(d, heads, 2 * d, 0.0, batch_first=True, norm_first=True)
            self.enc = nn.TransformerEncoder(layer, layers)
            self.head = nn.Sequential(nn.LayerNorm(d), nn.ReLU(), nn.Linear(d, 1))

        def forward(self, x):  # [b, feats]
            t = x.unsqueeze(2) * self.w + self.b
            t = torch.cat([self.cls.expand(x.shape[0], -1, -1), t], 1)
            return self.head(self.enc(t)[:, 0])

    class BlockLocalAttention(nn.Module):  # attention within blocks of 64 tokens and their left neighbour
        def __init__(self, d, heads, block=64):
            super().__init__()
            self.h, self.block = heads, block
            self.qkv = nn.Linear(d, 3 * d)
            self.o = nn.Linear(d, d)

        def forward(self, x):  # [b, n, d]
            b, n, d = x.shape
            w, h = self.block, self.h
            q, k, v = self.qkv(x).view(b, n // w, w, 3, h, d // h).permute(3, 0, 4, 1, 2, 5)  # [b, h, nb, w, dh]
            k2 = torch.cat([F.pad(k, (0, 0, 0, 0, 1, 0))[:, :, :-1], k], 3)  # the previous block's keys too
            v2 = torch.cat([F.pad(v, (0, 0, 0, 0, 1, 0))[:, :, :-1], v], 3)
            a = (q @ k2.transpose(-2, -1) * (d // h) ** -0.5).softmax(-1)
            return self.o((a @ v2).permute(0, 2, 3, 1, 4).reshape(b, n, d))

    class LocalTransformer(nn.Module):  # 2 sequences of 1024 token ids, 4 layers of block-local attention
        def __init__(self, vocab=5000, d=128, heads=4, layers=4):
            super().__init__()
            self.e = nn.Embedding(vocab, d)
            self.pos = nn.Parameter(torch.randn(1, 1024, d) * 0.02)
            self.att = nn.ModuleList([BlockLocalAttention(d, heads) for _ in range(layers)])
            self.n1 = nn.ModuleList([nn.LayerNorm(d) for _ in range(layers)])
            self.n2 = nn.ModuleList([nn.LayerNorm(d) for _ in range(layers)])
            self.ff = nn.ModuleList([nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
                                     for _ in range(layers)])
            self.out = nn.Linear(d, 2)

        def forward(self, t):
            x = self.e(t) + self.pos
            for a, n1, n2, ff in zip(self.att, self.n1, self.n2, self.ff):
                x = x + a(n1(x))
                x = x + ff(n2(x))
            return self.out(x.mean(1))

    class PointNetPP(nn.Module):  # 4 clouds of 1024 points: 16 nearest neighbours by TopK over pairwise
        # distances, their offsets through a shared MLP (1x1 Convs), the max over neighbours, twice
        def __init__(self, classes=40, k=16):
            super().__init__()
            self.k = k
            self.m1 = nn.Sequential(nn.Conv2d(6, 64, 1), nn.BatchNorm2d(64), nn.ReLU(), nn.Conv2d(64, 64, 1), nn.ReLU())
            self.m2 = nn.Sequential(nn.Conv2d(128, 128, 1), nn.BatchNorm2d(128), nn.ReLU(), nn.Conv2d(128, 256, 1),
                                    nn.ReLU())
            self.fc = nn.Sequential(nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, classes))

        def group(self, pos, feat):  # pos [b, n, 3], feat [b, c, n] -> [b, 2c, n, k]
            d = (pos.unsqueeze(2) - pos.unsqueeze(1)).pow(2).sum(-1)  # [b, n, n]
            idx = d.topk(self.k, -1, largest=False)[1]  # [b, n, k]
            b, c, n = feat.shape
            nb = torch.gather(feat.unsqueeze(2).expand(b, c, n, n), 3, idx.unsqueeze(1).expand(b, c, n, self.k))
            centre = feat.unsqueeze(3).expand(-1, -1, -1, self.k)
            return torch.cat([nb - centre, centre], 1)

        def forward(self, pos):  # [b, n, 3]
            f = self.m1(self.group(pos, pos.transpose(1, 2))).amax(3)  # [b, 64, n]
            sub = pos[:, ::4]
            f = f[:, :, ::4]
            f = self.m2(self.group(sub, f)).amax(3)
            return self.fc(f.amax(2))

    class ModConv(nn.Module):  # StyleGAN2's modulated Conv: weights scaled by a style a sample, demodulated,
        # run as one grouped Conv of a group a sample
        def __init__(self, i, o, k, wdim):
            super().__init__()
            self.w = nn.Parameter(torch.randn(o, i, k, k) * 0.2)
            self.aff = nn.Linear(wdim, i)
            self.k = k

        def forward(self, x, w):
            b, i, hh, ww = x.shape
            s = self.aff(w) + 1  # [b, i]
            wt = self.w.unsqueeze(0) * s.view(b, 1, i, 1, 1)
            wt = wt * torch.rsqrt(wt.pow(2).sum((2, 3, 4), keepdim=True) + 1e-8)
            o = wt.shape[1]
            y = F.conv2d(x.reshape(1, b * i, hh, ww), wt.reshape(b * o, i, self.k, self.k), padding=self.k // 2,
                         groups=b)
            return F.leaky_relu(y.view(b, o, hh, ww), 0.2)

    class StyleGenLite(nn.Module):  # 4 latents of 128: a mapping MLP, a learned 4x4 input, modulated Convs
        # up to 64x64 (bilinear upsampling), a modulated 1x1 to RGB
        def __init__(self, z=128, ch=(128, 128, 64, 64, 32)):
            super().__init__()
            self.map = nn.Sequential(*[m for _ in range(4) for m in (nn.Linear(z, z), nn.LeakyReLU(0.2))])
            self.const = nn.Parameter(torch.randn(1, ch[0], 4, 4))
            self.convs = nn.ModuleList()
            for a, b in zip(ch[:-1], ch[1:]):
                self.convs.append(nn.ModuleList([ModConv(a, b, 3, z), ModConv(b, b, 3, z)]))
            self.rgb = ModConv(ch[-1], 3, 1, z)

        def forward(self, z):
            w = self.map(z)
            x = self.const.expand(z.shape[0], -1, -1, -1)
            for c1, c2 in self.convs:
                x = F.interpolate(x, scale_factor=2.0, mode="bilinear", align_corners=False)
                x = c2(c1(x, w), w)
            return self.rgb(x, w)

    class ResBlockT(nn.Module):  # GroupNorm, SiLU, Conv, plus the time embedding
        def __init__(self, i, o, t):
            super().__init__()
            self.n1, self.c1 = nn.GroupNorm(8, i), nn.Conv2d(i, o, 3, padding=1)
            self.t = nn.Linear(t, o)
            self.n2, self.c2 = nn.GroupNorm(8, o), nn.Conv2d(o, o, 3, padding=1)
            self.skip = nn.Conv2d(i, o, 1) if i != o else nn.Identity()

        def forward(self, x, te):
            h = self.c1(F.silu(self.n1(x))) + self.t(te)[:, :, None, None]
            return self.skip(x) + self.c2(F.silu(self.n2(h)))

    class DiffusionUNet(nn.Module):  # 4 images 32x32: a sinusoidal time embedding, two levels, self-attention
        # at 8x8, nearest upsampling, skip concatenation
        def __init__(self, c=(64, 128, 128), t=128):
            super().__init__()
            self.temb = nn.Sequential(nn.Linear(t, t), nn.SiLU(), nn.Linear(t, t))
            self.inp = nn.Conv2d(3, c[0], 3, padding=1)
            self.d0, self.d1 = ResBlockT(c[0], c[0], t), ResBlockT(c[0], c[1], t)
            self.mid = ResBlockT(c[1], c[2], t)
            self.an = nn.GroupNorm(8, c[2])
            self.att = nn.MultiheadAttention(c[2], 4, batch_first=True)
            self.u1 = ResBlockT(c[2] + c[1], c[1], t)
            self.u0 = ResBlockT(c[1] + c[0], c[0], t)
            self.out = nn.Sequential(nn.GroupNorm(8, c[0]), nn.SiLU(), nn.Conv2d(c[0], 3, 3, padding=1))
            self.half = t // 2

        def forward(self, x, step):  # x [b, 3, 32, 32], step [b] float
            f = torch.exp(torch.arange(self.half, dtype=torch.float32) * (-9.21 / self.half))
            e = step[:, None] * f[None]
            te = self.temb(torch.cat([e.sin(), e.cos()], 1))
            h0 = self.d0(self.inp(x), te)  # 32x32
            h1 = self.d1(F.avg_pool2d(h0, 2), te)  # 16x16
            m = self.mid(F.avg_pool2d(h1, 2), te)  # 8x8
            b, c, hh, ww = m.shape
            s = self.an(m).flatten(2).transpose(1, 2)
            m = m + self.att(s, s, s, need_weights=False)[0].transpose(1, 2).reshape(b, c, hh, ww)
            u = self.u1(torch.cat([F.interpolate(m, scale_factor=2.0, mode="nearest"), h1], 1), te)
            u = self.u0(torch.cat([F.interpolate(u, scale_factor=2.0, mode="nearest"), h0], 1), te)
            return self.out(u)

    torch.manual_seed(160)
    export_nets(torch, out, 160, (("inception_lite_b4_96", InceptionLite, (4, 3, 96, 96)),
                                  ("ft_transformer_b256", FtTransformer, (256, 24)),
                                  ("local_attn_b2_t1024", LocalTransformer, torch.randint(0, 5000, (2, 1024))),
                                  ("pointnetpp_lite_b4_n1024", PointNetPP, (4, 1024, 3)),
                                  ("stylegen_lite_b4", StyleGenLite, (4, 128)),
                                  ("diffusion_unet_b4_32", DiffusionUNet,
                                   (torch.randn(4, 3, 32, 32), torch.tensor([3.0, 50.0, 200.0, 999.0])))),
                opset=16)
    return 0


def export_sixty_first_set(torch, out):
    # Session 50, after its changes (the last-level cache the level after the core's own; a vector op's loop
    # priced by its distance), before it was measured.
    nn = torch.nn
    F = torch.nn.functional

    class Fastformer(nn.Module):  # additive attention: a global query, then a global key, by softmax-weighted
        # sums over tokens, mixed into the values elementwise; 2 layers over 512 tokens
        def __init__(self, d=256, heads=8, layers=2, vocab=8000):
            super().__init__()
            self.e = nn.Embedding(vocab, d)
            self.h = heads
            self.qkv = nn.ModuleList(nn.Linear(d, 3 * d) for _ in range(layers))
            self.aq = nn.ModuleList(nn.Linear(d // heads, 1) for _ in range(layers))
            self.ak = nn.ModuleList(nn.Linear(d // heads, 1) for _ in range(layers))
            self.o = nn.ModuleList(nn.Linear(d, d) for _ in range(layers))
            self.n = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
            self.ff = nn.ModuleList(nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
                                    for _ in range(layers))
            self.n2 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
            self.cls = nn.Linear(d, 5)

        def forward(self, t):
            x = self.e(t)
            b, n, d = x.shape
            for i in range(len(self.qkv)):
                q, k, v = self.qkv[i](x).view(b, n, 3, self.h, d // self.h).unbind(2)  # [b, n, h, dh]
                a = torch.softmax(self.aq[i](q).squeeze(-1) / 4.0, 1)  # [b, n, h]
                gq = (a.unsqueeze(-1) * q).sum(1, keepdim=True)  # [b, 1, h, dh]
                p = gq * k
                bk = torch.softmax(self.ak[i](p).squeeze(-1) / 4.0, 1)
                gk = (bk.unsqueeze(-1) * p).sum(1, keepdim=True)
                u = (gk * v).reshape(b, n, d)
                x = self.n[i](x + self.o[i](u) + q.reshape(b, n, d))
                x = self.n2[i](x + self.ff[i](x))
            return self.cls(x.mean(1))

    class Hopfield(nn.Module):  # modern Hopfield retrieval: 3 updates of softmax(beta * state . memories)
        # memories over 4096 stored patterns, then a classifier
        def __init__(self, d=128, stored=4096, steps=3):
            super().__init__()
            self.inp = nn.Linear(64, d)
            self.mem = nn.Parameter(torch.randn(stored, d) * 0.2)
            self.proj = nn.Linear(d, d)
            self.steps = steps
            self.out = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 10))

        def forward(self, x):  # [b, 64]
            s = self.inp(x)
            m = self.proj(self.mem)
            for _ in range(self.steps):
                s = torch.softmax(4.0 * s @ m.t(), -1) @ m
            return self.out(s)

    class PointTransformerLayer(nn.Module):  # vector attention over 16 nearest neighbours: relative
        # positions through an MLP, weights by an MLP of query - key + position, softmax over neighbours
        def __init__(self, d, k=16):
            super().__init__()
            self.k = k
            self.q, self.kk, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
            self.pos = nn.Sequential(nn.Linear(3, d), nn.ReLU(), nn.Linear(d, d))
            self.w = nn.Sequential(nn.Linear(d, d // 4), nn.ReLU(), nn.Linear(d // 4, d))

        def forward(self, p, x):  # p [b, n, 3], x [b, n, d]
            b, n, d = x.shape
            dist = (p.unsqueeze(2) - p.unsqueeze(1)).pow(2).sum(-1)  # [b, n, n]
            idx = dist.topk(self.k, -1, largest=False)[1]  # [b, n, k]
            flat = (idx + torch.arange(b).view(b, 1, 1) * n).reshape(-1)
            kf = self.kk(x).reshape(b * n, d)[flat].view(b, n, self.k, d)
            vf = self.v(x).reshape(b * n, d)[flat].view(b, n, self.k, d)
            pf = p.reshape(b * n, 3)[flat].view(b, n, self.k, 3)
            rel = self.pos(p.unsqueeze(2) - pf)
            a = torch.softmax(self.w(self.q(x).unsqueeze(2) - kf + rel), 2)
            return x + (a * (vf + rel)).sum(2)

    class PointTransformer(nn.Module):  # 2 clouds of 1024 points: an embedding, 2 vector-attention layers,
        # a max-pooled classifier
        def __init__(self, d=64, classes=40):
            super().__init__()
            self.emb = nn.Sequential(nn.Linear(3, d), nn.ReLU(), nn.Linear(d, d))
            self.l1, self.l2 = PointTransformerLayer(d), PointTransformerLayer(d)
            self.head = nn.Sequential(nn.Linear(d, 128), nn.ReLU(), nn.Linear(128, classes))

        def forward(self, p):
            x = self.emb(p)
            x = self.l2(p, self.l1(p, x))
            return self.head(x.max(1)[0])

    def cbr(i, o, k=3, s=1):
        return nn.Sequential(nn.Conv2d(i, o, k, s, k // 2, bias=False), nn.BatchNorm2d(o), nn.ReLU())

    class RetinaLite(nn.Module):  # a strided CNN, an FPN (1x1 laterals, nearest top-down upsampling, 3x3
        # outputs) over three levels, class and box towers of 3x3 Convs shared by the levels, 9 anchors x 20
        # classes by sigmoid, boxes concatenated over the levels
        def __init__(self, c=96, anchors=9, classes=20):
            super().__init__()
            self.s1 = nn.Sequential(cbr(3, 32, 3, 2), cbr(32, 64, 3, 2), cbr(64, 64))  # /4
            self.s2 = nn.Sequential(cbr(64, 128, 3, 2), cbr(128, 128))  # /8
            self.s3 = nn.Sequential(cbr(128, 192, 3, 2), cbr(192, 192))  # /16
            self.s4 = nn.Sequential(cbr(192, 256, 3, 2), cbr(256, 256))  # /32
            self.lat = nn.ModuleList(nn.Conv2d(i, c, 1) for i in (128, 192, 256))
            self.fo = nn.ModuleList(nn.Conv2d(c, c, 3, padding=1) for _ in range(3))
            self.ct = nn.Sequential(*[m for _ in range(2) for m in (nn.Conv2d(c, c, 3, padding=1), nn.ReLU())])
            self.bt = nn.Sequential(*[m for _ in range(2) for m in (nn.Conv2d(c, c, 3, padding=1), nn.ReLU())])
            self.cls = nn.Conv2d(c, anchors * classes, 3, padding=1)
            self.box = nn.Conv2d(c, anchors * 4, 3, padding=1)
            self.classes = classes

        def forward(self, x):
            c2 = self.s2(self.s1(x))
            c3 = self.s3(c2)
            c4 = self.s4(c3)
            p4 = self.lat[2](c4)
            p3 = self.lat[1](c3) + F.interpolate(p4, scale_factor=2.0, mode="nearest")
            p2 = self.lat[0](c2) + F.interpolate(p3, scale_factor=2.0, mode="nearest")
            cls, box = [], []
            for f, p in zip(self.fo, (p2, p3, p4)):
                p = f(p)
                b = p.shape[0]
                cls.append(torch.sigmoid(self.cls(self.ct(p))).permute(0, 2, 3, 1).reshape(b, -1, self.classes))
                box.append(self.box(self.bt(p)).permute(0, 2, 3, 1).reshape(b, -1, 4))
            return torch.cat(cls, 1), torch.cat(box, 1)

    class ViGLite(nn.Module):  # Vision GNN: 196 patch nodes, a kNN graph (9 neighbours by TopK over
        # feature distances) per block, max-relative graph convolution, FFN; 4 blocks
        def __init__(self, d=192, k=9, blocks=4, classes=100):
            super().__init__()
            self.k = k
            self.stem = nn.Sequential(nn.Conv2d(3, d // 2, 4, 4), nn.BatchNorm2d(d // 2), nn.GELU(),
                                      nn.Conv2d(d // 2, d, 4, 4), nn.BatchNorm2d(d))
            self.pos = nn.Parameter(torch.randn(1, 196, d) * 0.02)
            self.fc1 = nn.ModuleList(nn.Linear(d, d) for _ in range(blocks))
            self.gc = nn.ModuleList(nn.Linear(2 * d, d) for _ in range(blocks))
            self.fc2 = nn.ModuleList(nn.Linear(d, d) for _ in range(blocks))
            self.ffn = nn.ModuleList(nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
                                     for _ in range(blocks))
            self.n1 = nn.ModuleList(nn.LayerNorm(d) for _ in range(blocks))
            self.n2 = nn.ModuleList(nn.LayerNorm(d) for _ in range(blocks))
            self.head = nn.Linear(d, classes)

        def forward(self, x):  # [b, 3, 224, 224]
            x = self.stem(x).flatten(2).transpose(1, 2) + self.pos  # [b, 196, d]
            b, n, d = x.shape
            for i in range(len(self.gc)):
                h = self.fc1[i](self.n1[i](x))
                sq = (h * h).sum(-1, keepdim=True)
                dist = sq - 2 * h @ h.transpose(1, 2) + sq.transpose(1, 2)
                idx = dist.topk(self.k, -1, largest=False)[1]  # [b, n, k]
                flat = (idx + torch.arange(b).view(b, 1, 1) * n).reshape(-1)
                nb = h.reshape(b * n, d)[flat].view(b, n, self.k, d)
                rel = (nb - h.unsqueeze(2)).max(2)[0]
                x = x + self.fc2[i](F.gelu(self.gc[i](torch.cat([h, rel], -1))))
                x = x + self.ffn[i](self.n2[i](x))
            return self.head(x.mean(1))

    class UNetPP(nn.Module):  # UNet++ of depth 3: nested dense skip pathways (each node the concat of its
        # row's earlier nodes and the upsampled node below), deep supervision averaged over the top row
        def __init__(self, c=(32, 64, 128, 256), classes=4):
            super().__init__()

            def block(i, o):
                return nn.Sequential(cbr(i, o), cbr(o, o))

            self.x = nn.ModuleDict()
            for i in range(4):
                self.x[f"{i}0"] = block(3 if i == 0 else c[i - 1], c[i])
            for j in range(1, 4):
                for i in range(4 - j):
                    self.x[f"{i}{j}"] = block(c[i] * j + c[i + 1], c[i])
            self.heads = nn.ModuleList(nn.Conv2d(c[0], classes, 1) for _ in range(3))

        def forward(self, x):
            n = {}
            for i in range(4):
                n[(i, 0)] = self.x[f"{i}0"](x if i == 0 else F.max_pool2d(n[(i - 1, 0)], 2))
            for j in range(1, 4):
                for i in range(4 - j):
                    up = F.interpolate(n[(i + 1, j - 1)], scale_factor=2.0, mode="bilinear", align_corners=False)
                    n[(i, j)] = self.x[f"{i}{j}"](torch.cat([n[(i, k)] for k in range(j)] + [up], 1))
            return sum(h(n[(0, j)]) for j, h in zip((1, 2, 3), self.heads)) / 3.0

    torch.manual_seed(161)
    export_nets(torch, out, 161, (("fastformer_b8_t512", Fastformer, torch.randint(0, 8000, (8, 512))),
                                  ("hopfield_b512", Hopfield, (512, 64)),
                                  ("point_transformer_b2_n1024", PointTransformer, (2, 1024, 3)),
                                  ("retina_lite_b2_256", RetinaLite, (2, 3, 256, 256)),
                                  ("vig_lite_b4", ViGLite, (4, 3, 224, 224)),
                                  ("unetpp_b2_96", UNetPP, (2, 3, 96, 96))),
                opset=16)
    return 0


def export_sixty_second_set(torch, out):
    # Session 51, after its changes (short-row sums four rows at a time; a short row repeated down a dense
    # operand run against a tile), before it was measured.
    nn = torch.nn
    F = torch.nn.functional

    class EGNN(nn.Module):  # E(n)-equivariant GNN over fully connected graphs of 64 nodes: edge messages from
        # both nodes' features and the squared distance, coordinates moved along the pairwise offsets, 4 layers
        def __init__(self, d=64, layers=4):
            super().__init__()
            self.emb = nn.Linear(16, d)
            self.edge = nn.ModuleList(nn.Sequential(nn.Linear(2 * d + 1, d), nn.SiLU(), nn.Linear(d, d), nn.SiLU())
                                      for _ in range(layers))
            self.coord = nn.ModuleList(nn.Sequential(nn.Linear(d, d), nn.SiLU(), nn.Linear(d, 1)) for _ in range(layers))
            self.node = nn.ModuleList(nn.Sequential(nn.Linear(2 * d, d), nn.SiLU(), nn.Linear(d, d)) for _ in range(layers))
            self.out = nn.Linear(d, 1)

        def forward(self, h, x):  # h [b, n, 16], x [b, n, 3]
            h = self.emb(h)
            b, n, d = h.shape
            for e, c, v in zip(self.edge, self.coord, self.node):
                rel = x.unsqueeze(2) - x.unsqueeze(1)  # [b, n, n, 3]
                d2 = (rel * rel).sum(-1, keepdim=True)
                m = e(torch.cat([h.unsqueeze(2).expand(b, n, n, d), h.unsqueeze(1).expand(b, n, n, d), d2], -1))
                x = x + (rel * c(m)).mean(2)
                h = h + v(torch.cat([h, m.sum(2)], -1))
            return self.out(h).sum(1), x

    class Nystromformer(nn.Module):  # Nystrom attention with 32 landmarks (segment means) and 6 Newton-Schulz
        # iterations for the pseudo-inverse, 2 layers over 512 tokens
        def __init__(self, d=128, heads=4, lm=32, layers=2, vocab=4000):
            super().__init__()
            self.e = nn.Embedding(vocab, d)
            self.h, self.lm = heads, lm
            self.qkv = nn.ModuleList(nn.Linear(d, 3 * d) for _ in range(layers))
            self.o = nn.ModuleList(nn.Linear(d, d) for _ in range(layers))
            self.n1 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
            self.n2 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
            self.ff = nn.ModuleList(nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
                                    for _ in range(layers))
            self.cls = nn.Linear(d, 3)

        def pinv(self, k):
            i = torch.eye(k.shape[-1]).expand_as(k)
            z = k.transpose(-1, -2) / (k.abs().sum(-1).max() * k.abs().sum(-2).max())
            for _ in range(6):
                kz = k @ z
                z = 0.25 * z @ (13 * i - kz @ (15 * i - kz @ (7 * i - kz)))
            return z

        def forward(self, t):
            x = self.e(t)
            b, n, d = x.shape
            dh = d // self.h
            for qkv, o, n1, n2, ff in zip(self.qkv, self.o, self.n1, self.n2, self.ff):
                q, k, v = qkv(n1(x)).view(b, n, 3, self.h, dh).permute(2, 0, 3, 1, 4)
                q = q / dh ** 0.5
                ql = q.reshape(b, self.h, self.lm, n // self.lm, dh).mean(3)
                kl = k.reshape(b, self.h, self.lm, n // self.lm, dh).mean(3)
                k1 = torch.softmax(q @ kl.transpose(-1, -2), -1)
                k2 = torch.softmax(ql @ kl.transpose(-1, -2), -1)
                k3 = torch.softmax(ql @ k.transpose(-1, -2), -1)
                a = (k1 @ self.pinv(k2)) @ (k3 @ v)
                x = x + o(a.transpose(1, 2).reshape(b, n, d))
                x = x + ff(n2(x))
            return self.cls(x.mean(1))

    class CrossViT(nn.Module):  # two branches (patches of 8 and of 16 over 64x64), each a transformer encoder,
        # then cross-attention of each branch's class token over the other's patches; 2 stages
        def __init__(self, ds=96, dl=192, classes=10):
            super().__init__()
            self.ps = nn.Conv2d(3, ds, 8, 8)
            self.pl = nn.Conv2d(3, dl, 16, 16)
            self.cs = nn.Parameter(torch.randn(1, 1, ds) * 0.02)
            self.cl = nn.Parameter(torch.randn(1, 1, dl) * 0.02)
            self.es = nn.ModuleList(nn.TransformerEncoderLayer(ds, 3, 2 * ds, batch_first=True, norm_first=True)
                                    for _ in range(2))
            self.el = nn.ModuleList(nn.TransformerEncoderLayer(dl, 6, 2 * dl, batch_first=True, norm_first=True)
                                    for _ in range(2))
            self.s2l = nn.ModuleList(nn.Linear(ds, dl) for _ in range(2))
            self.l2s = nn.ModuleList(nn.Linear(dl, ds) for _ in range(2))
            self.xs = nn.ModuleList(nn.MultiheadAttention(ds, 3, batch_first=True) for _ in range(2))
            self.xl = nn.ModuleList(nn.MultiheadAttention(dl, 6, batch_first=True) for _ in range(2))
            self.hs, self.hl = nn.Linear(ds, classes), nn.Linear(dl, classes)

        def forward(self, img):
            s = self.ps(img).flatten(2).transpose(1, 2)
            l = self.pl(img).flatten(2).transpose(1, 2)
            b = s.shape[0]
            s = torch.cat([self.cs.expand(b, 1, -1), s], 1)
            l = torch.cat([self.cl.expand(b, 1, -1), l], 1)
            for i in range(2):
                s, l = self.es[i](s), self.el[i](l)
                qs = self.l2s[i](l[:, :1])  # the large branch's class token asks the small patches
                ql = self.s2l[i](s[:, :1])
                ns = s[:, :1] + self.xs[i](qs, s[:, 1:], s[:, 1:], need_weights=False)[0]
                nl = l[:, :1] + self.xl[i](ql, l[:, 1:], l[:, 1:], need_weights=False)[0]
                s = torch.cat([ns, s[:, 1:]], 1)
                l = torch.cat([nl, l[:, 1:]], 1)
            return self.hs(s[:, 0]) + self.hl(l[:, 0])

    class SCINet(nn.Module):  # sample-convolution-interaction tree for forecasting: each level splits the series
        # into even and odd steps, each half convolved and mixed with the other (exp scaling, then +/-), depth 3
        def __init__(self, ch=7, hidden=32, depth=3, horizon=24, length=96):
            super().__init__()
            self.depth = depth

            def conv():
                return nn.Sequential(nn.ReplicationPad1d(2), nn.Conv1d(ch, hidden, 5), nn.LeakyReLU(0.01),
                                     nn.Dropout(0.0), nn.Conv1d(hidden, ch, 3, padding=1), nn.Tanh())

            n = 2 ** depth - 1
            self.phi = nn.ModuleList(conv() for _ in range(n))
            self.psi = nn.ModuleList(conv() for _ in range(n))
            self.rho = nn.ModuleList(conv() for _ in range(n))
            self.eta = nn.ModuleList(conv() for _ in range(n))
            self.proj = nn.Conv1d(length, horizon, 1)

        def tree(self, x, level, at):
            ev, od = x[:, :, 0::2], x[:, :, 1::2]
            d = od * torch.exp(self.phi[at](ev))
            c = ev * torch.exp(self.psi[at](od))
            ev2 = c + self.rho[at](d)
            od2 = d - self.eta[at](c)
            if level + 1 < self.depth:
                ev2 = self.tree(ev2, level + 1, 2 * at + 1)
                od2 = self.tree(od2, level + 1, 2 * at + 2)
            return torch.stack([ev2, od2], -1).reshape(x.shape)

        def forward(self, x):  # [b, 96, 7]
            y = self.tree(x.transpose(1, 2), 0, 0).transpose(1, 2) + x
            return self.proj(y)

    class SoftKMeans(nn.Module):  # differentiable clustering of 4096 embeddings: an encoder MLP, 3 soft k-means
        # updates (softmax over negative squared distances to 64 centroids of 16 dims, weighted means), a decoder
        def __init__(self, k=64, d=16):
            super().__init__()
            self.enc = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, d))
            self.c0 = nn.Parameter(torch.randn(k, d))
            self.dec = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, 32))

        def forward(self, x):  # [4096, 32]
            z = self.enc(x)
            c = self.c0
            for _ in range(3):
                dist = ((z.unsqueeze(1) - c.unsqueeze(0)) ** 2).sum(-1)  # [n, k]
                a = torch.softmax(-dist, 1)
                c = (a.t() @ z) / (a.sum(0).unsqueeze(1) + 1e-6)
            return self.dec(a @ c)

    class DeformableAttn(nn.Module):  # deformable attention over a 2-level feature pyramid: each query predicts 4
        # sampling offsets a head and level, bilinear sampling by GridSample, attention weights by softmax
        def __init__(self, d=128, heads=4, points=4, queries=300):
            super().__init__()
            self.h, self.p = heads, points
            self.backbone = nn.Sequential(nn.Conv2d(3, 64, 3, 2, 1), nn.ReLU(), nn.Conv2d(64, d, 3, 2, 1), nn.ReLU())
            self.down = nn.Conv2d(d, d, 3, 2, 1)
            self.q = nn.Parameter(torch.randn(queries, d) * 0.1)
            self.ref = nn.Parameter(torch.rand(queries, 2))
            self.off = nn.Linear(d, heads * 2 * points * 2)
            self.w = nn.Linear(d, heads * 2 * points)
            self.val = nn.Linear(d, d)
            self.out = nn.Linear(d, d)
            self.head = nn.Linear(d, 4 + 20)

        def forward(self, img):  # [b, 3, 128, 128]
            f1 = self.backbone(img)  # [b, d, 32, 32]
            f2 = self.down(f1)  # [b, d, 16, 16]
            b, d = f1.shape[:2]
            nq, h, p = self.q.shape[0], self.h, self.p
            q = self.q.unsqueeze(0).expand(b, nq, d)
            off = self.off(q).view(b, nq, h, 2, p, 2).tanh() * 0.1
            w = torch.softmax(self.w(q).view(b, nq, h, 2 * p), -1).view(b, nq, h, 2, p)
            loc = (self.ref.view(1, nq, 1, 1, 1, 2) + off) * 2 - 1
            acc = 0
            for lv, f in enumerate((f1, f2)):
                v = self.val(f.flatten(2).transpose(1, 2)).transpose(1, 2)  # [b, d, hw]
                v = v.reshape(b * h, d // h, f.shape[2], f.shape[3])
                g = loc[:, :, :, lv].permute(0, 2, 1, 3, 4).reshape(b * h, nq, p, 2)
                s = F.grid_sample(v, g, mode="bilinear", padding_mode="zeros", align_corners=False)  # [bh, dh, nq, p]
                wl = w[:, :, :, lv].permute(0, 2, 1, 3).reshape(b * h, 1, nq, p)
                acc = acc + (s * wl).sum(-1)
            a = acc.view(b, h * (d // h), nq).transpose(1, 2)
            return self.head(q + self.out(a))

    torch.manual_seed(162)
    export_nets(torch, out, 162, (("egnn_b8_n64", EGNN, (torch.rand(8, 64, 16), torch.rand(8, 64, 3))),
                                  ("nystromformer_b4_t512", Nystromformer, torch.randint(0, 4000, (4, 512))),
                                  ("crossvit_lite_b4_64", CrossViT, (4, 3, 64, 64)),
                                  ("scinet_b32_96", SCINet, (32, 96, 7)),
                                  ("soft_kmeans_n4096", SoftKMeans, (4096, 32)),
                                  ("deformable_attn_b2_128", DeformableAttn, (2, 3, 128, 128))),
                opset=16)
    return 0


def export_sixty_third_set(torch, out):
    # Session 52, at its start (after session 51's last change), before any measurement.
    nn = torch.nn
    F = torch.nn.functional

    class REBNConv(nn.Module):
        def __init__(self, cin, cout, dil=1):
            super().__init__()
            self.c = nn.Conv2d(cin, cout, 3, padding=dil, dilation=dil)
            self.b = nn.BatchNorm2d(cout)

        def forward(self, x):
            return F.relu(self.b(self.c(x)))

    class RSU(nn.Module):  # a residual U-block of the given height: encoder Convs with max-pooling, a dilated
        # bottom, decoder Convs over upsampled concatenations, the block input added back
        def __init__(self, height, cin, mid, cout):
            super().__init__()
            self.inp = REBNConv(cin, cout)
            self.enc = nn.ModuleList([REBNConv(cout, mid)] + [REBNConv(mid, mid) for _ in range(height - 2)])
            self.bottom = REBNConv(mid, mid, 2)
            self.dec = nn.ModuleList([REBNConv(2 * mid, mid) for _ in range(height - 2)] + [REBNConv(2 * mid, cout)])

        def forward(self, x):
            xin = self.inp(x)
            skips, h = [], xin
            for i, e in enumerate(self.enc):
                h = e(h)
                skips.append(h)
                if i + 1 < len(self.enc):
                    h = F.max_pool2d(h, 2, 2, ceil_mode=True)
            h = self.bottom(h)
            for d, s in zip(self.dec, reversed(skips)):
                if h.shape[-1] != s.shape[-1]:
                    h = F.interpolate(h, size=s.shape[-2:], mode="bilinear", align_corners=False)
                h = d(torch.cat([h, s], 1))
            return h + xin

    class U2Net(nn.Module):  # three stages of RSU blocks (heights 5, 4, 3) down and up, side outputs fused
        def __init__(self):
            super().__init__()
            self.e1, self.e2, self.e3 = RSU(5, 3, 8, 32), RSU(4, 32, 8, 32), RSU(3, 32, 8, 32)
            self.d2, self.d1 = RSU(4, 64, 8, 32), RSU(5, 64, 8, 32)
            self.side = nn.ModuleList(nn.Conv2d(32, 1, 3, padding=1) for _ in range(3))
            self.fuse = nn.Conv2d(3, 1, 1)

        def forward(self, x):  # [b, 3, 128, 128]
            h1 = self.e1(x)
            h2 = self.e2(F.max_pool2d(h1, 2, 2))
            h3 = self.e3(F.max_pool2d(h2, 2, 2))
            d2 = self.d2(torch.cat([F.interpolate(h3, scale_factor=2.0, mode="bilinear", align_corners=False), h2], 1))
            d1 = self.d1(torch.cat([F.interpolate(d2, scale_factor=2.0, mode="bilinear", align_corners=False), h1], 1))
            s = [self.side[0](d1),
                 F.interpolate(self.side[1](d2), scale_factor=2.0, mode="bilinear", align_corners=False),
                 F.interpolate(self.side[2](h3), scale_factor=4.0, mode="bilinear", align_corners=False)]
            return torch.sigmoid(self.fuse(torch.cat(s, 1)))

    class GatedABMIL(nn.Module):  # attention-based multiple-instance learning: instance embeddings, a gated
        # attention score each (tanh branch times sigmoid branch), softmax over the bag, the weighted sum classified
        def __init__(self, fin=512, d=256, a=128, classes=2):
            super().__init__()
            self.emb = nn.Sequential(nn.Linear(fin, d), nn.ReLU(), nn.Dropout(0.0))
            self.v, self.u, self.w = nn.Linear(d, a), nn.Linear(d, a), nn.Linear(a, 1)
            self.cls = nn.Linear(d, classes)

        def forward(self, x):  # [n, 512]
            h = self.emb(x)
            s = self.w(torch.tanh(self.v(h)) * torch.sigmoid(self.u(h)))  # [n, 1]
            a = torch.softmax(s.t(), 1)  # [1, n]
            return self.cls(a @ h), a

    class GraphUNet(nn.Module):  # graph U-Net: GCN layers over a dense normalised adjacency, TopK pooling by a
        # learned projection (the kept nodes' features gated by their scores), unpooling by scatter back
        def __init__(self, fin=32, d=64, keep=(512, 256)):
            super().__init__()
            self.keep = keep
            self.inp = nn.Linear(fin, d)
            self.down = nn.ModuleList(nn.Linear(d, d) for _ in keep)
            self.proj = nn.ParameterList(nn.Parameter(torch.randn(d) / d ** 0.5) for _ in keep)
            self.mid = nn.Linear(d, d)
            self.up = nn.ModuleList(nn.Linear(d, d) for _ in keep)
            self.out = nn.Linear(d, 8)

        def forward(self, x, adj):  # x [n, 32], adj [n, n] row-normalised
            h = F.relu(adj @ self.inp(x))
            stack = []
            for lin, p, k in zip(self.down, self.proj, self.keep):
                score = h @ p / p.norm()
                top, idx = torch.topk(score, k)
                stack.append((h, adj, idx))
                h = F.relu(adj[idx][:, idx] @ lin(h[idx] * torch.sigmoid(top).unsqueeze(1)))
                adj = adj[idx][:, idx]
            h = F.relu(adj @ self.mid(h))
            for lin, (hp, ap, idx) in zip(self.up, reversed(stack)):
                full = torch.zeros_like(hp).index_copy(0, idx, h)
                h = F.relu(ap @ lin(full + hp))
            return self.out(h)

    class MusicRelAttn(nn.Module):  # Music Transformer decoder blocks: causal self-attention with learned
        # relative position embeddings, the relative logits skewed into place by Pad, Reshape and Slice
        def __init__(self, d=128, heads=4, t=128, layers=3, vocab=388):
            super().__init__()
            self.h, self.t = heads, t
            self.e = nn.Embedding(vocab, d)
            self.er = nn.ParameterList(nn.Parameter(torch.randn(t, d // heads) * 0.02) for _ in range(layers))
            self.qkv = nn.ModuleList(nn.Linear(d, 3 * d) for _ in range(layers))
            self.o = nn.ModuleList(nn.Linear(d, d) for _ in range(layers))
            self.n1 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
            self.n2 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
            self.ff = nn.ModuleList(nn.Sequential(nn.Linear(d, 4 * d), nn.ReLU(), nn.Linear(4 * d, d))
                                    for _ in range(layers))
            self.head = nn.Linear(d, vocab)
            self.register_buffer("mask", torch.triu(torch.full((t, t), float("-inf")), 1))

        def forward(self, tok):  # [b, t]
            x = self.e(tok)
            b, t, d = x.shape
            dh = d // self.h
            for er, qkv, o, n1, n2, ff in zip(self.er, self.qkv, self.o, self.n1, self.n2, self.ff):
                q, k, v = qkv(n1(x)).view(b, t, 3, self.h, dh).permute(2, 0, 3, 1, 4)
                rel = q @ er.t()  # [b, h, t, t]: query i against relative distance t-1-j
                rel = F.pad(rel, (1, 0)).reshape(b, self.h, t + 1, t)[:, :, 1:]  # the skew
                att = torch.softmax((q @ k.transpose(-1, -2) + rel) / dh ** 0.5 + self.mask, -1)
                x = x + o((att @ v).transpose(1, 2).reshape(b, t, d))
                x = x + ff(n2(x))
            return self.head(x)

    class SinkhornMatch(nn.Module):  # SuperGlue-style matching of two sets of 256 keypoints: descriptors from a
        # keypoint encoder, self- then cross-attention, a score matrix with a dustbin row and column, 20 log-domain
        # Sinkhorn iterations (ReduceLogSumExp)
        def __init__(self, d=64, iters=20):
            super().__init__()
            self.iters = iters
            self.kenc = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, d))
            self.self_attn = nn.MultiheadAttention(d, 4, batch_first=True)
            self.cross_attn = nn.MultiheadAttention(d, 4, batch_first=True)
            self.proj = nn.Linear(d, d)
            self.alpha = nn.Parameter(torch.tensor(1.0))

        def forward(self, k0, d0, k1, d1):  # keypoints [b, n, 3] (x, y, score), descriptors [b, n, d]
            a, c = d0 + self.kenc(k0), d1 + self.kenc(k1)
            a = a + self.self_attn(a, a, a, need_weights=False)[0]
            c = c + self.self_attn(c, c, c, need_weights=False)[0]
            a, c = a + self.cross_attn(a, c, c, need_weights=False)[0], c + self.cross_attn(c, a, a, need_weights=False)[0]
            s = self.proj(a) @ self.proj(c).transpose(1, 2) / a.shape[-1] ** 0.5  # [b, m, n]
            b, m, n = s.shape
            z = torch.cat([torch.cat([s, self.alpha.expand(b, m, 1)], 2), self.alpha.expand(b, 1, n + 1)], 1)
            norm = -torch.log(torch.tensor(float(m + n)))
            log_mu = torch.cat([norm.expand(m), torch.log(torch.tensor(float(n))).reshape(1) + norm])
            log_nu = torch.cat([norm.expand(n), torch.log(torch.tensor(float(m))).reshape(1) + norm])
            u = torch.zeros(b, m + 1)
            v = torch.zeros(b, n + 1)
            for _ in range(self.iters):
                u = log_mu - torch.logsumexp(z + v.unsqueeze(1), 2)
                v = log_nu - torch.logsumexp(z + u.unsqueeze(2), 1)
            return z + u.unsqueeze(2) + v.unsqueeze(1) - norm

    class SpikingCNN(nn.Module):  # a spiking CNN: each layer's membrane potential leaks, integrates its Conv's
        # input, fires where it crosses the threshold (a comparison cast to float) and is reset by subtraction;
        # 8 time steps unrolled, the output spikes counted
        def __init__(self, steps=8, beta=0.9):
            super().__init__()
            self.steps, self.beta = steps, beta
            self.c1, self.c2 = nn.Conv2d(2, 32, 3, padding=1), nn.Conv2d(32, 64, 3, padding=1)
            self.fc = nn.Linear(64 * 8 * 8, 10)

        def forward(self, x):  # event frames [b, 2, 32, 32]
            b = x.shape[0]
            v1 = torch.zeros(b, 32, 32, 32)
            v2 = torch.zeros(b, 64, 16, 16)
            v3 = torch.zeros(b, 10)
            count = torch.zeros(b, 10)
            for _ in range(self.steps):
                v1 = self.beta * v1 + self.c1(x)
                s1 = (v1 > 1.0).float()
                v1 = v1 - s1
                v2 = self.beta * v2 + self.c2(F.max_pool2d(s1, 2))
                s2 = (v2 > 1.0).float()
                v2 = v2 - s2
                v3 = self.beta * v3 + self.fc(F.max_pool2d(s2, 2).flatten(1))
                s3 = (v3 > 1.0).float()
                v3 = v3 - s3
                count = count + s3
            return count, v3

    torch.manual_seed(163)
    adj = (torch.rand(1024, 1024) < 0.01).float() + torch.eye(1024)
    adj = adj / adj.sum(1, keepdim=True)
    export_nets(torch, out, 163, (("u2net_lite_b2_128", U2Net, (2, 3, 128, 128)),
                                  ("gated_abmil_n2048", GatedABMIL, (2048, 512)),
                                  ("graph_unet_n1024", GraphUNet, (torch.rand(1024, 32), adj)),
                                  ("music_reltfm_b2_t128", MusicRelAttn, torch.randint(0, 388, (2, 128))),
                                  ("sinkhorn_match_b4_256", SinkhornMatch,
                                   (torch.rand(4, 256, 3), torch.randn(4, 256, 64), torch.rand(4, 256, 3),
                                    torch.randn(4, 256, 64))),
                                  ("spiking_cnn_b16_32", SpikingCNN, (torch.rand(16, 2, 32, 32) * 2))),
                opset=16)
    return 0


def export_sixty_fourth_set(torch, out):
    # Session 53, at its start (after session 52's last change), before any measurement.
    import torchvision

    nn = torch.nn
    F = torch.nn.functional

    class DDSPSynth(nn.Module):  # frame controls (f0 and loudness) -> per-harmonic amplitudes by a GRU and an
        # MLP, upsampled to samples; phase the cumulative sum of the frequency; 32 harmonics' sines summed
        def __init__(self, harmonics=32, hop=64, sr=16000.0):
            super().__init__()
            self.hop, self.sr = hop, sr
            self.inp = nn.Sequential(nn.Linear(2, 128), nn.LayerNorm(128), nn.LeakyReLU())
            self.gru = nn.GRU(128, 128, batch_first=True)
            self.out = nn.Sequential(nn.Linear(128, 128), nn.LayerNorm(128), nn.LeakyReLU(), nn.Linear(128, harmonics + 1))
            self.register_buffer("k", torch.arange(1, harmonics + 1, dtype=torch.float32))

        def forward(self, ctrl):  # [b, frames, 2]: f0 in Hz, loudness
            h, _ = self.gru(self.inp(ctrl))
            p = self.out(h)
            amp = torch.sigmoid(p[..., :1]) * torch.softmax(p[..., 1:], -1)  # [b, frames, h]
            f0 = ctrl[..., :1]  # [b, frames, 1]
            amp = F.interpolate(amp.transpose(1, 2), scale_factor=float(self.hop), mode="linear", align_corners=False)
            f0 = F.interpolate(f0.transpose(1, 2), scale_factor=float(self.hop), mode="linear", align_corners=False)
            phase = torch.cumsum(2 * 3.14159265 * f0 / self.sr, -1)  # [b, 1, samples]
            freq = f0 * self.k.view(1, -1, 1)
            amp = amp * (freq < self.sr / 2).float()
            return (torch.sin(phase * self.k.view(1, -1, 1)) * amp).sum(1)

    class RoIHead(nn.Module):  # a backbone of strided Convs to a stride-8 map, RoIAlign of 7x7 per box, two fully
        # connected layers, class scores and per-class boxes
        def __init__(self, classes=21):
            super().__init__()
            self.body = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1), nn.ReLU(), nn.Conv2d(32, 64, 3, 2, 1), nn.ReLU(),
                                      nn.Conv2d(64, 128, 3, 2, 1), nn.ReLU(), nn.Conv2d(128, 128, 3, 1, 1), nn.ReLU())
            self.fc = nn.Sequential(nn.Flatten(), nn.Linear(128 * 49, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU())
            self.cls, self.box = nn.Linear(512, classes), nn.Linear(512, 4 * classes)

        def forward(self, img, boxes):  # [2, 3, 256, 256], [128, 5] (batch index, x1, y1, x2, y2)
            f = self.body(img)
            r = torchvision.ops.roi_align(f, boxes, (7, 7), spatial_scale=0.125, sampling_ratio=2, aligned=True)
            h = self.fc(r)
            return torch.softmax(self.cls(h), -1), self.box(h)

    class NeRF(nn.Module):  # positional encoding of points (10 frequencies) and directions (4), 8 layers of 256 with
        # the encoding concatenated back at the fifth, density and a view-dependent colour head
        def __init__(self, d=256):
            super().__init__()
            self.register_buffer("fp", 2.0 ** torch.arange(10, dtype=torch.float32))
            self.register_buffer("fd", 2.0 ** torch.arange(4, dtype=torch.float32))
            ep = 3 + 3 * 2 * 10
            self.l = nn.ModuleList([nn.Linear(ep, d)] + [nn.Linear(d + (ep if i == 5 else 0), d) for i in range(1, 8)])
            self.sigma, self.feat = nn.Linear(d, 1), nn.Linear(d, d)
            self.rgb = nn.Sequential(nn.Linear(d + 3 + 3 * 2 * 4, d // 2), nn.ReLU(), nn.Linear(d // 2, 3), nn.Sigmoid())

        def enc(self, x, f):
            xf = (x.unsqueeze(-1) * f).flatten(1)
            return torch.cat([x, torch.sin(xf), torch.cos(xf)], -1)

        def forward(self, pts, dirs):  # [n, 3] each
            e = self.enc(pts, self.fp)
            h = e
            for i, l in enumerate(self.l):
                if i == 5:
                    h = torch.cat([h, e], -1)
                h = F.relu(l(h))
            return F.relu(self.sigma(h)), self.rgb(torch.cat([self.feat(h), self.enc(dirs, self.fd)], -1))

    class TabTransformer(nn.Module):  # 16 categorical columns embedded (a table each), 4 transformer layers over
        # them, flattened beside 8 normalised numeric columns, an MLP to the logit
        def __init__(self, cols=16, card=50, d=32, numeric=8):
            super().__init__()
            self.emb = nn.ModuleList(nn.Embedding(card, d) for _ in range(cols))
            layer = nn.TransformerEncoderLayer(d, 4, 4 * d, dropout=0.0, batch_first=True)
            self.t = nn.TransformerEncoder(layer, 4, enable_nested_tensor=False)
            self.norm = nn.LayerNorm(numeric)
            self.mlp = nn.Sequential(nn.Linear(cols * d + numeric, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(),
                                     nn.Linear(128, 1))

        def forward(self, cat, num):  # [b, 16] int64, [b, 8]
            e = torch.stack([m(cat[:, i]) for i, m in enumerate(self.emb)], 1)
            return self.mlp(torch.cat([self.t(e).flatten(1), self.norm(num)], -1))

    class BilinearCNN(nn.Module):  # a VGG-style trunk; the feature map's outer product with itself averaged over
        # positions, signed square root, L2 normalisation, a linear classifier
        def __init__(self, classes=200):
            super().__init__()
            chans, layers, c = (32, 64, 128, 128), [], 3
            for i, k in enumerate(chans):
                layers += [nn.Conv2d(c, k, 3, padding=1), nn.ReLU(), nn.Conv2d(k, k, 3, padding=1), nn.ReLU()]
                if i < 3:
                    layers.append(nn.MaxPool2d(2))
                c = k
            self.trunk = nn.Sequential(*layers)
            self.fc = nn.Linear(c * c, classes)

        def forward(self, x):  # [b, 3, 112, 112]
            f = self.trunk(x).flatten(2)  # [b, c, hw]
            g = torch.bmm(f, f.transpose(1, 2)) / f.shape[-1]
            g = g.flatten(1)
            g = torch.sign(g) * torch.sqrt(torch.abs(g) + 1e-10)
            return self.fc(F.normalize(g, dim=1))

    class PointerNet(nn.Module):  # an LSTM encoder over the points, an LSTM decoder unrolled over 12 steps:
        # additive attention over the encoder states, its argmax's point the next step's input
        def __init__(self, d=128, steps=12):
            super().__init__()
            self.steps = steps
            self.emb = nn.Linear(2, d)
            self.enc = nn.LSTM(d, d, batch_first=True)
            self.dec = nn.LSTMCell(d, d)
            self.wq, self.wk, self.v = nn.Linear(d, d, bias=False), nn.Linear(d, d, bias=False), nn.Linear(d, 1, bias=False)
            self.start = nn.Parameter(torch.randn(d) * 0.1)

        def forward(self, pts):  # [b, n, 2]
            e = self.emb(pts)
            k, (h, c) = self.enc(e)
            h, c = h[0], c[0]
            keys = self.wk(k)
            inp = self.start.expand(pts.shape[0], -1)
            logits = []
            for _ in range(self.steps):
                h, c = self.dec(inp, (h, c))
                u = self.v(torch.tanh(keys + self.wq(h).unsqueeze(1))).squeeze(-1)  # [b, n]
                logits.append(u)
                idx = u.argmax(-1)
                inp = torch.gather(e, 1, idx.view(-1, 1, 1).expand(-1, 1, e.shape[-1])).squeeze(1)
            return torch.stack(logits, 1)

    torch.manual_seed(164)
    f0 = 100.0 + 300.0 * torch.rand(4, 250, 1)
    ctrl = torch.cat([f0, torch.rand(4, 250, 1)], -1)
    xy = torch.rand(128, 2) * 200
    wh = 16 + torch.rand(128, 2) * 40
    boxes = torch.cat([torch.randint(0, 2, (128, 1)).float(), xy, xy + wh], 1)
    export_nets(torch, out, 164, (("ddsp_synth_b4_t250", DDSPSynth, ctrl),
                                  ("roi_head_b2_r128", RoIHead, (torch.rand(2, 3, 256, 256), boxes)),
                                  ("nerf_mlp_n4096", NeRF, (torch.rand(4096, 3) * 2 - 1, F.normalize(torch.randn(4096, 3), dim=1))),
                                  ("tabtransformer_b256", TabTransformer, (torch.randint(0, 50, (256, 16)), torch.randn(256, 8))),
                                  ("bilinear_cnn_b4_112", BilinearCNN, (4, 3, 112, 112)),
                                  ("pointer_net_b16_n50", PointerNet, (torch.rand(16, 50, 2),))),
                opset=16)
    return 0


def export_sixty_fifth_set(torch, out):
    # Session 54, at its start (after session 53's last change), before any measurement.
    nn = torch.nn
    F = torch.nn.functional

    class PWCCorr(nn.Module):  # a two-level feature pyramid of both frames, a local correlation cost volume of 9x9
        # displacements (the second frame padded and sliced per displacement), densely connected flow estimator
        def __init__(self, r=4):
            super().__init__()
            self.r = r
            self.feat = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.LeakyReLU(0.1), nn.Conv2d(16, 32, 3, 2, 1), nn.LeakyReLU(0.1),
                                      nn.Conv2d(32, 32, 3, 1, 1), nn.LeakyReLU(0.1))
            c, convs = (2 * r + 1) ** 2 + 32, []
            for k in (64, 48, 32):
                convs.append(nn.Conv2d(c, k, 3, 1, 1))
                c += k
            self.dense = nn.ModuleList(convs)
            self.flow = nn.Conv2d(c, 2, 3, 1, 1)

        def forward(self, a, b):  # [b, 3, 64, 64] each
            fa, fb = self.feat(a), self.feat(b)
            h, w, r = fa.shape[2], fa.shape[3], self.r
            pb = F.pad(fb, (r, r, r, r))
            cost = torch.cat([(fa * pb[:, :, i:i + h, j:j + w]).mean(1, keepdim=True)
                              for i in range(2 * r + 1) for j in range(2 * r + 1)], 1)
            x = torch.cat([F.leaky_relu(cost, 0.1), fa], 1)
            for conv in self.dense:
                x = torch.cat([F.leaky_relu(conv(x), 0.1), x], 1)
            return self.flow(x)

    class HashGridNeRF(nn.Module):  # a multiresolution hash encoding (8 levels, 2^14 entries of 2 features each, the
        # corner's cell hashed by a modular sum of primes), trilinear weights, a 64-wide MLP to density and colour
        def __init__(self, levels=8, table=2 ** 14, feats=2):
            super().__init__()
            self.table = table
            self.register_buffer("res", torch.floor(16 * 1.5 ** torch.arange(levels, dtype=torch.float32)))
            self.emb = nn.Parameter(torch.rand(levels, table, feats) * 2e-2 - 1e-2)
            self.register_buffer("primes", torch.tensor([1, 2654435, 805459], dtype=torch.int64))
            corners = torch.tensor([[i >> 2 & 1, i >> 1 & 1, i & 1] for i in range(8)], dtype=torch.float32)
            self.register_buffer("corners", corners)  # [8, 3]
            self.register_buffer("offs", (torch.arange(levels) * table).view(1, levels, 1))
            self.mlp = nn.Sequential(nn.Linear(levels * feats, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 16))
            self.rgb = nn.Sequential(nn.Linear(15 + 3, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 3), nn.Sigmoid())

        def forward(self, pts, dirs):  # [n, 3] in [0, 1), [n, 3]
            x = pts.unsqueeze(1) * self.res.view(1, -1, 1)  # [n, L, 3]
            x0 = torch.floor(x)
            fr = x - x0
            c = x0.unsqueeze(2) + self.corners.view(1, 1, 8, 3)  # [n, L, 8, 3]
            idx = (c.long() * self.primes).sum(-1) % self.table + self.offs  # [n, L, 8]
            wt = torch.where(self.corners.view(1, 1, 8, 3) > 0, fr.unsqueeze(2), 1 - fr.unsqueeze(2)).prod(-1)
            f = self.emb.view(-1, self.emb.shape[-1])[idx]  # [n, L, 8, F]
            enc = (f * wt.unsqueeze(-1)).sum(2).flatten(1)  # [n, L*F]
            h = self.mlp(enc)
            return F.softplus(h[:, :1]), self.rgb(torch.cat([h[:, 1:], dirs], -1))

    class ReformerLSH(nn.Module):  # 2 layers of LSH attention: shared query-key, random rotations to 8 buckets, the
        # positions sorted by bucket, attention within chunks of 32 and their predecessor, unsorted back
        def __init__(self, d=128, heads=4, buckets=8, chunk=32, layers=2, vocab=1000):
            super().__init__()
            self.h, self.chunk = heads, chunk
            self.emb = nn.Embedding(vocab, d)
            self.qk = nn.ModuleList(nn.Linear(d, d) for _ in range(layers))
            self.v = nn.ModuleList(nn.Linear(d, d) for _ in range(layers))
            self.o = nn.ModuleList(nn.Linear(d, d) for _ in range(layers))
            self.n1 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
            self.n2 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
            self.ff = nn.ModuleList(nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d)) for _ in range(layers))
            self.register_buffer("rot", torch.randn(layers, d // heads, buckets // 2))
            self.head = nn.Linear(d, vocab)

        def attend(self, x, i):
            b, t, d = x.shape
            h, dh, n = self.h, d // self.h, self.chunk
            qk = self.qk[i](x).view(b, t, h, dh).transpose(1, 2)  # [b, h, t, dh]
            v = self.v[i](x).view(b, t, h, dh).transpose(1, 2)
            r = qk @ self.rot[i]
            bucket = torch.cat([r, -r], -1).argmax(-1)  # [b, h, t]
            key = bucket * t + torch.arange(t, device=x.device)
            order = key.argsort(-1)
            undo = order.argsort(-1)
            g = order.unsqueeze(-1).expand(-1, -1, -1, dh)
            sq, sv = qk.gather(2, g), v.gather(2, g)
            sq = sq.view(b, h, t // n, n, dh)
            sv = sv.view(b, h, t // n, n, dh)
            k = F.normalize(sq, dim=-1)
            kk = torch.cat([k, k.roll(1, 2)], 3)
            vv = torch.cat([sv, sv.roll(1, 2)], 3)
            a = torch.softmax(sq @ kk.transpose(-1, -2) / dh ** 0.5, -1) @ vv  # [b, h, c, n, dh]
            a = a.reshape(b, h, t, dh).gather(2, undo.unsqueeze(-1).expand(-1, -1, -1, dh))
            return self.o[i](a.transpose(1, 2).reshape(b, t, d))

        def forward(self, tok):  # [b, t] int64
            x = self.emb(tok)
            for i in range(len(self.qk)):
                x = x + self.attend(self.n1[i](x), i)
                x = x + self.ff[i](self.n2[i](x))
            return self.head(x)

    class WhisperLite(nn.Module):  # log-mel frames through two Conv1d (GELU, the second strided), sinusoidal positions,
        # 2 encoder layers; a token decoder of 2 layers with causal self-attention and cross-attention, tied logits
        def __init__(self, mels=80, d=192, heads=4, vocab=2000, tokens=32):
            super().__init__()
            self.c1, self.c2 = nn.Conv1d(mels, d, 3, padding=1), nn.Conv1d(d, d, 3, 2, 1)
            pos = torch.arange(150, dtype=torch.float32).unsqueeze(1) / 10000 ** (torch.arange(0, d, 2) / d)
            self.register_buffer("pos", torch.cat([pos.sin(), pos.cos()], 1))
            enc = nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.0, activation="gelu", batch_first=True, norm_first=True)
            self.enc = nn.TransformerEncoder(enc, 2, enable_nested_tensor=False)
            dec = nn.TransformerDecoderLayer(d, heads, 4 * d, dropout=0.0, activation="gelu", batch_first=True, norm_first=True)
            self.dec = nn.TransformerDecoder(dec, 2)
            self.tok = nn.Embedding(vocab, d)
            self.tpos = nn.Parameter(torch.randn(tokens, d) * 0.02)
            self.register_buffer("mask", torch.triu(torch.full((tokens, tokens), float("-inf")), 1))
            self.ln = nn.LayerNorm(d)

        def forward(self, mel, tok):  # [b, 80, 300], [b, 32] int64
            a = F.gelu(self.c2(F.gelu(self.c1(mel)))).transpose(1, 2) + self.pos
            m = self.enc(a)
            y = self.dec(self.tok(tok) + self.tpos, m, tgt_mask=self.mask)
            return self.ln(y) @ self.tok.weight.t()

    class MaskHead(nn.Module):  # Mask R-CNN's mask branch over pooled RoI features: 4 Conv3x3 of 256, a 2x
        # ConvTranspose, a per-class 1x1 Conv, sigmoid
        def __init__(self, classes=21):
            super().__init__()
            layers, c = [], 128
            for _ in range(4):
                layers += [nn.Conv2d(c, 256, 3, padding=1), nn.ReLU()]
                c = 256
            self.body = nn.Sequential(*layers, nn.ConvTranspose2d(256, 256, 2, 2), nn.ReLU(), nn.Conv2d(256, classes, 1))

        def forward(self, x):  # [r, 128, 14, 14]
            return torch.sigmoid(self.body(x))

    class HAN(nn.Module):  # a hierarchical attention network: a bidirectional GRU with attention pooling over each
        # sentence's words, then over the document's sentences, a classifier
        def __init__(self, vocab=5000, d=64, h=64, classes=10):
            super().__init__()
            self.emb = nn.Embedding(vocab, d)
            self.wgru = nn.GRU(d, h, batch_first=True, bidirectional=True)
            self.sgru = nn.GRU(2 * h, h, batch_first=True, bidirectional=True)
            self.watt, self.satt = nn.Linear(2 * h, 2 * h), nn.Linear(2 * h, 2 * h)
            self.wctx, self.sctx = nn.Linear(2 * h, 1, bias=False), nn.Linear(2 * h, 1, bias=False)
            self.cls = nn.Linear(2 * h, classes)

        @staticmethod
        def pool(x, att, ctx):
            a = torch.softmax(ctx(torch.tanh(att(x))), 1)
            return (a * x).sum(1)

        def forward(self, doc):  # [b, sentences, words] int64
            b, s, w = doc.shape
            wh, _ = self.wgru(self.emb(doc.view(b * s, w)))
            sv = self.pool(wh, self.watt, self.wctx).view(b, s, -1)
            sh, _ = self.sgru(sv)
            return self.cls(self.pool(sh, self.satt, self.sctx))

    torch.manual_seed(165)
    export_nets(torch, out, 165, (("pwc_corr_b2_64", PWCCorr, (torch.rand(2, 3, 64, 64), torch.rand(2, 3, 64, 64))),
                                  ("hash_nerf_n8192", HashGridNeRF, (torch.rand(8192, 3), F.normalize(torch.randn(8192, 3), dim=1))),
                                  ("reformer_lsh_b2_t256", ReformerLSH, torch.randint(0, 1000, (2, 256))),
                                  ("whisper_lite_b2", WhisperLite, (torch.randn(2, 80, 300), torch.randint(0, 2000, (2, 32)))),
                                  ("mask_head_r32", MaskHead, (32, 128, 14, 14)),
                                  ("han_b8_s10_w30", HAN, torch.randint(0, 5000, (8, 10, 30)))),
                opset=16)
    return 0


def export_sixty_sixth_set(torch, torchvision, out):
    # Session 55, at its start (after session 54's last change), before any measurement.
    nn = torch.nn
    F = torch.nn.functional

    class Stgcn(nn.Module):  # two ST-Conv blocks: a gated temporal Conv (GLU), a graph convolution by the normalised
        # adjacency (einsum over nodes), another gated temporal Conv, LayerNorm over nodes and channels; an output Conv
        def __init__(self, n=64, t=24, c=2):
            super().__init__()
            a = (torch.rand(n, n) < 0.1).float()
            a = ((a + a.t() + torch.eye(n)) > 0).float()
            d = a.sum(1).rsqrt()
            self.register_buffer("adj", d[:, None] * a * d[None, :])
            blocks, cin = [], c
            for cout in (64, 64):
                blocks.append(nn.ModuleList([nn.Conv2d(cin, 2 * cout, (3, 1)), nn.Conv2d(cout, 16, 1),
                                             nn.Conv2d(16, 2 * cout, (3, 1)), nn.LayerNorm([n, cout])]))
                cin = cout
            self.blocks = nn.ModuleList(blocks)
            self.out = nn.Conv2d(cin, 1, (t - 8, 1))

        def forward(self, x):  # [b, 2, 24, 64]: channels, time steps, nodes
            for t1, theta, t2, ln in self.blocks:
                p, q = t1(x).chunk(2, 1)
                x = p * torch.sigmoid(q)
                x = torch.relu(theta(torch.einsum("bctn,nm->bctm", x, self.adj)))
                p, q = t2(x).chunk(2, 1)
                x = ln((p * torch.sigmoid(q)).permute(0, 2, 3, 1)).permute(0, 3, 1, 2)
            return self.out(x)

    class TacotronDecoder(nn.Module):  # an encoder (embedding, 3 Conv1d with BatchNorm, a bidirectional LSTM); a decoder
        # unrolled over 12 teacher-forced frames: prenet, attention LSTMCell, location-sensitive attention (a Conv1d over
        # the cumulative weights), decoder LSTMCell, frame and stop-token projections
        def __init__(self, vocab=100, d=256, mels=80, steps=12):
            super().__init__()
            self.steps = steps
            self.emb = nn.Embedding(vocab, d)
            self.convs = nn.ModuleList(nn.Sequential(nn.Conv1d(d, d, 5, padding=2), nn.BatchNorm1d(d), nn.ReLU()) for _ in range(3))
            self.lstm = nn.LSTM(d, d // 2, batch_first=True, bidirectional=True)
            self.prenet = nn.Sequential(nn.Linear(mels, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU())
            self.att_rnn = nn.LSTMCell(128 + d, 512)
            self.q, self.m, self.v = nn.Linear(512, 64, bias=False), nn.Linear(d, 64, bias=False), nn.Linear(64, 1, bias=False)
            self.loc = nn.Conv1d(2, 16, 15, padding=7)
            self.locp = nn.Linear(16, 64, bias=False)
            self.dec_rnn = nn.LSTMCell(512 + d, 512)
            self.frame, self.stop = nn.Linear(512 + d, mels), nn.Linear(512 + d, 1)

        def forward(self, text, frames):  # [b, 60] int64, [b, 12, 80]
            x = self.emb(text).transpose(1, 2)
            for c in self.convs:
                x = c(x)
            mem, _ = self.lstm(x.transpose(1, 2))  # [b, s, d]
            pm = self.m(mem)
            b, s, d = mem.shape
            ah = ac = dh = dc = mem.new_zeros(b, 512)
            w = cum = mem.new_zeros(b, s)
            ctx = mem.new_zeros(b, d)
            outs, stops = [], []
            for i in range(self.steps):
                p = self.prenet(frames[:, i])
                ah, ac = self.att_rnn(torch.cat([p, ctx], 1), (ah, ac))
                loc = self.locp(self.loc(torch.stack([w, cum], 1)).transpose(1, 2))
                e = self.v(torch.tanh(self.q(ah).unsqueeze(1) + pm + loc)).squeeze(2)
                w = torch.softmax(e, 1)
                cum = cum + w
                ctx = torch.bmm(w.unsqueeze(1), mem).squeeze(1)
                dh, dc = self.dec_rnn(torch.cat([ah, ctx], 1), (dh, dc))
                o = torch.cat([dh, ctx], 1)
                outs.append(self.frame(o))
                stops.append(self.stop(o))
            return torch.stack(outs, 1), torch.sigmoid(torch.cat(stops, 1))

    class AnchorFreeNms(nn.Module):  # a stride-8 backbone, a head of box distances, objectness and 8 classes per cell;
        # boxes decoded from the grid, scores = objectness x best class, class-aware NonMaxSuppression, the kept boxes
        def __init__(self, classes=8):
            super().__init__()
            self.body = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1), nn.ReLU(), nn.Conv2d(32, 64, 3, 2, 1), nn.ReLU(),
                                      nn.Conv2d(64, 96, 3, 2, 1), nn.ReLU(), nn.Conv2d(96, 96, 3, 1, 1), nn.ReLU())
            self.head = nn.Conv2d(96, 4 + 1 + classes, 1)

        def forward(self, img):  # [1, 3, 320, 320]
            y = self.head(self.body(img))[0]  # [13, 40, 40]
            h, w = y.shape[1], y.shape[2]
            gy, gx = torch.meshgrid(torch.arange(h, dtype=torch.float32), torch.arange(w, dtype=torch.float32), indexing="ij")
            cx, cy = (gx.flatten() + 0.5) * 8, (gy.flatten() + 0.5) * 8
            dist = torch.exp(y[:4].flatten(1).clamp(max=4.0)) * 8  # [4, h*w]
            boxes = torch.stack([cx - dist[0], cy - dist[1], cx + dist[2], cy + dist[3]], 1)
            cls, label = torch.sigmoid(y[5:].flatten(1)).max(0)
            scores = torch.sigmoid(y[4].flatten()) * cls
            keep = torchvision.ops.batched_nms(boxes, scores, label, 0.5)
            return boxes[keep], scores[keep], label[keep]

    class TopKSparseAttention(nn.Module):  # 2 pre-norm layers whose attention keeps each query's 32 largest scores (a
        # ScatterElements of ones at TopK's indices masks the rest to -inf), a GELU MLP
        def __init__(self, d=128, heads=4, k=32, layers=2, vocab=2000):
            super().__init__()
            self.h, self.k = heads, k
            self.emb = nn.Embedding(vocab, d)
            self.qkv = nn.ModuleList(nn.Linear(d, 3 * d) for _ in range(layers))
            self.o = nn.ModuleList(nn.Linear(d, d) for _ in range(layers))
            self.n1 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
            self.n2 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
            self.ff = nn.ModuleList(nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d)) for _ in range(layers))
            self.head = nn.Linear(d, vocab)

        def forward(self, tok):  # [b, t] int64
            x = self.emb(tok)
            b, t, d = x.shape
            for i in range(len(self.qkv)):
                q, k, v = self.qkv[i](self.n1[i](x)).view(b, t, 3, self.h, d // self.h).permute(2, 0, 3, 1, 4)
                s = q @ k.transpose(-1, -2) / (d // self.h) ** 0.5
                idx = s.topk(self.k, -1).indices
                keep = torch.zeros_like(s).scatter(-1, idx, 1.0)
                a = torch.softmax(s.masked_fill(keep == 0, float("-inf")), -1) @ v
                x = x + self.o[i](a.transpose(1, 2).reshape(b, t, d))
                x = x + self.ff[i](self.n2[i](x))
            return self.head(x)

    class SpectrogramTransformer(nn.Module):  # framing by unfold (400-point Hann window, hop 160; torch 1.13 exports no
        # STFT), a DFT as two MatMuls, power, a mel projection, log;
        # 16x16 patches with stride 10 as tokens, a class token, 2 encoder layers, the class token to 20 classes
        def __init__(self, d=192, mels=64, classes=20):
            super().__init__()
            self.register_buffer("win", torch.hann_window(400))
            ang = 2 * 3.14159265 * torch.arange(400).float()[:, None] * torch.arange(201).float()[None] / 400
            self.register_buffer("cos", ang.cos())
            self.register_buffer("sin", -ang.sin())
            self.register_buffer("mel", torch.rand(201, mels) / 201)
            self.patch = nn.Conv2d(1, d, 16, 10)
            self.cls = nn.Parameter(torch.randn(1, 1, d) * 0.02)
            self.pos = nn.Parameter(torch.randn(1, 1 + 5 * 9, d) * 0.02)
            layer = nn.TransformerEncoderLayer(d, 4, 4 * d, dropout=0.0, activation="gelu", batch_first=True, norm_first=True)
            self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
            self.norm, self.head = nn.LayerNorm(d), nn.Linear(d, classes)

        def forward(self, wav):  # [b, 16000]
            fr = wav.unfold(1, 400, 160) * self.win  # [b, 98, 400] frames
            power = (fr @ self.cos).pow(2) + (fr @ self.sin).pow(2)  # [b, 98, 201]
            m = torch.log(power @ self.mel + 1e-6).unsqueeze(1)  # [b, 1, 98, 64]
            p = self.patch(m).flatten(2).transpose(1, 2)  # [b, 9*5, d]
            x = torch.cat([self.cls.expand(p.shape[0], -1, -1), p], 1) + self.pos
            return self.head(self.norm(self.enc(x))[:, 0])

    class SlowFast(nn.Module):  # a slow pathway (4 frames, 64 channels) and a fast one (16 frames, 8 channels) of Conv3d
        # blocks, a lateral Conv3d (temporal stride 4) from fast to slow after each stage, pooled and concatenated
        def __init__(self, classes=10):
            super().__init__()
            self.s1 = nn.Sequential(nn.Conv3d(3, 32, (1, 7, 7), (1, 2, 2), (0, 3, 3)), nn.BatchNorm3d(32), nn.ReLU())
            self.f1 = nn.Sequential(nn.Conv3d(3, 8, (5, 7, 7), (1, 2, 2), (2, 3, 3)), nn.BatchNorm3d(8), nn.ReLU())
            self.l1 = nn.Conv3d(8, 16, (5, 1, 1), (4, 1, 1), (2, 0, 0))
            self.s2 = nn.Sequential(nn.Conv3d(48, 64, (1, 3, 3), (1, 2, 2), (0, 1, 1)), nn.BatchNorm3d(64), nn.ReLU(),
                                    nn.Conv3d(64, 64, (3, 1, 1), 1, (1, 0, 0)), nn.ReLU())
            self.f2 = nn.Sequential(nn.Conv3d(8, 16, (3, 3, 3), (1, 2, 2), 1), nn.BatchNorm3d(16), nn.ReLU())
            self.l2 = nn.Conv3d(16, 32, (5, 1, 1), (4, 1, 1), (2, 0, 0))
            self.fc = nn.Linear(64 + 32 + 16, classes)

        def forward(self, slow, fast):  # [b, 3, 4, 112, 112], [b, 3, 16, 112, 112]
            s, f = self.s1(slow), self.f1(fast)
            s = self.s2(torch.cat([s, self.l1(f)], 1))
            f = self.f2(f)
            s = torch.cat([s, self.l2(f)], 1)
            return self.fc(torch.cat([s.mean((2, 3, 4)), f.mean((2, 3, 4))], 1))

    torch.manual_seed(166)
    export_nets(torch, out, 166, (("stgcn_b4_n64_t24", Stgcn, (4, 2, 24, 64)),
                                  ("tacotron_dec_b2_s12", TacotronDecoder, (torch.randint(0, 100, (2, 60)), torch.rand(2, 12, 80))),
                                  ("anchor_free_nms_320", AnchorFreeNms, (1, 3, 320, 320)),
                                  ("topk_sparse_attn_b2_t256", TopKSparseAttention, torch.randint(0, 2000, (2, 256))),
                                  ("spectrogram_tf_b4", SpectrogramTransformer, (4, 16000)),
                                  ("slowfast_lite_b2", SlowFast, (torch.rand(2, 3, 4, 112, 112), torch.rand(2, 3, 16, 112, 112)))),
                opset=17)
    return 0


def export_sixty_seventh_set(torch, out):
    # Session 56, after session 56's first change (a weight's read by its reuse distance), before any measurement
    # of these models.
    nn = torch.nn
    F = torch.nn.functional

    class GptDecode(nn.Module):  # a GPT-style decoder over 8 tokens of one sequence: 4 pre-norm layers of causal
        # attention (d 512, 8 heads) and a GELU MLP, a tied 8000-word output projection (few rows, large weights)
        def __init__(self, vocab=8000, d=512, layers=4, t=8):
            super().__init__()
            self.emb = nn.Embedding(vocab, d)
            self.pos = nn.Parameter(torch.randn(1, t, d) * 0.02)
            self.layers = nn.ModuleList(nn.ModuleList([nn.LayerNorm(d), nn.Linear(d, 3 * d), nn.Linear(d, d), nn.LayerNorm(d),
                                                       nn.Linear(d, 4 * d), nn.Linear(4 * d, d)]) for _ in range(layers))
            self.norm = nn.LayerNorm(d)
            self.register_buffer("mask", torch.triu(torch.full((t, t), float("-inf")), 1))
            self.h = 8

        def forward(self, ids):  # [1, 8]
            x = self.emb(ids) + self.pos
            b, t, d = x.shape
            for n1, qkv, proj, n2, fc1, fc2 in self.layers:
                q, k, v = qkv(n1(x)).reshape(b, t, 3, self.h, d // self.h).permute(2, 0, 3, 1, 4)
                a = torch.softmax(q @ k.transpose(-1, -2) / (d // self.h) ** 0.5 + self.mask, -1)
                x = x + proj((a @ v).transpose(1, 2).reshape(b, t, d))
                x = x + fc2(F.gelu(fc1(n2(x))))
            return self.norm(x) @ self.emb.weight.t()

    class GruCells(nn.Module):  # a DeepSpeech-style stack: a strided Conv1d over 64 features, two GRUCell layers of 512
        # unrolled over 16 steps (each layer's weights read by every step), a character projection
        def __init__(self, feats=64, hid=512, chars=32):
            super().__init__()
            self.conv = nn.Conv1d(feats, 256, 5, stride=2, padding=2)
            self.c1 = nn.GRUCell(256, hid)
            self.c2 = nn.GRUCell(hid, hid)
            self.out = nn.Linear(hid, chars)

        def forward(self, x):  # [4, 64, 32]
            x = torch.relu(self.conv(x)).transpose(1, 2)  # [4, 16, 256]
            h1 = x.new_zeros(x.shape[0], self.c1.hidden_size)
            h2 = h1
            ys = []
            for s in range(x.shape[1]):
                h1 = self.c1(x[:, s], h1)
                h2 = self.c2(h1, h2)
                ys.append(self.out(h2))
            return torch.stack(ys, 1).log_softmax(-1)

    class WideDeep(nn.Module):  # wide & deep: 8 categorical fields embedded (16) beside 32 dense features, an MLP
        # 160 -> 2048 -> 1024 -> 256, and a wide linear part over hashed crosses (a 50000-row table summed)
        def __init__(self, fields=8, rows=5000, dense=32):
            super().__init__()
            self.embs = nn.ModuleList(nn.Embedding(rows, 16) for _ in range(fields))
            self.mlp = nn.Sequential(nn.Linear(fields * 16 + dense, 2048), nn.ReLU(), nn.Linear(2048, 1024), nn.ReLU(),
                                     nn.Linear(1024, 256), nn.ReLU(), nn.Linear(256, 1))
            self.wide = nn.EmbeddingBag(50000, 1, mode="sum")

        def forward(self, cat, dense, cross):  # [32, 8] int, [32, 32], [32, 6] int
            e = torch.cat([emb(cat[:, i]) for i, emb in enumerate(self.embs)] + [dense], 1)
            return torch.sigmoid(self.mlp(e) + self.wide(cross))

    class Seq2SeqAttn(nn.Module):  # a GRU encoder over 20 tokens, a GRUCell decoder unrolled over 10 steps with Luong
        # (general) attention, greedy: each step's argmax word embedded as the next input; a 4000-word projection
        def __init__(self, vocab=4000, d=256, steps=10):
            super().__init__()
            self.steps = steps
            self.emb = nn.Embedding(vocab, d)
            self.enc = nn.GRU(d, d, batch_first=True)
            self.cell = nn.GRUCell(2 * d, d)
            self.wa = nn.Linear(d, d, bias=False)
            self.wc = nn.Linear(2 * d, d)
            self.out = nn.Linear(d, vocab)

        def forward(self, src):  # [2, 20]
            mem, h = self.enc(self.emb(src))
            h = h[0]
            ctx = mem.mean(1)
            tok = src[:, 0]
            ys = []
            for _ in range(self.steps):
                h = self.cell(torch.cat([self.emb(tok), ctx], 1), h)
                a = torch.softmax(torch.bmm(mem, self.wa(h).unsqueeze(2)).squeeze(2), 1)
                ctx = torch.bmm(a.unsqueeze(1), mem).squeeze(1)
                logits = self.out(torch.tanh(self.wc(torch.cat([h, ctx], 1))))
                ys.append(logits)
                tok = logits.argmax(1)
            return torch.stack(ys, 1)

    class ConvNextLite(nn.Module):  # ConvNeXt-style: a 4x4 patch stem, stages of depthwise 7x7 Convs, LayerNorm over
        # channels (channels-last), an inverted MLP as Linear layers on [b, h, w, c], layer scale; downsampling Convs
        def __init__(self, dims=(48, 96, 192), depths=(2, 2, 2), classes=100):
            super().__init__()
            self.stem = nn.Conv2d(3, dims[0], 4, 4)
            self.stages = nn.ModuleList()
            self.downs = nn.ModuleList()
            for i, (c, n) in enumerate(zip(dims, depths)):
                self.stages.append(nn.ModuleList(nn.ModuleList([nn.Conv2d(c, c, 7, padding=3, groups=c), nn.LayerNorm(c),
                                                                nn.Linear(c, 4 * c), nn.Linear(4 * c, c)]) for _ in range(n)))
                self.downs.append(nn.Conv2d(c, dims[i + 1], 2, 2) if i + 1 < len(dims) else nn.Identity())
            self.gamma = nn.Parameter(torch.full((1,), 0.1))
            self.head = nn.Linear(dims[-1], classes)

        def forward(self, x):  # [2, 3, 128, 128]
            x = self.stem(x)
            for blocks, down in zip(self.stages, self.downs):
                for dw, ln, fc1, fc2 in blocks:
                    y = ln(dw(x).permute(0, 2, 3, 1))
                    x = x + self.gamma * fc2(F.gelu(fc1(y))).permute(0, 3, 1, 2)
                x = down(x)
            return self.head(x.mean((2, 3)))

    class PerceiverLite(nn.Module):  # Perceiver-style: 64 latents cross-attend to 1024 inputs of 64 features, then 4
        # latent self-attention blocks that share one set of weights (each read 4 times a run), a pooled head
        def __init__(self, feats=64, d=256, latents=64, repeats=4, classes=10):
            super().__init__()
            self.latents = nn.Parameter(torch.randn(latents, d) * 0.02)
            self.inp = nn.Linear(feats, d)
            self.cross = nn.MultiheadAttention(d, 1, batch_first=True)
            self.self_attn = nn.MultiheadAttention(d, 8, batch_first=True)
            self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
            self.repeats = repeats
            self.head = nn.Linear(d, classes)

        def forward(self, x):  # [2, 1024, 64]
            kv = self.inp(x)
            z = self.latents.expand(x.shape[0], -1, -1)
            z = z + self.cross(z, kv, kv, need_weights=False)[0]
            for _ in range(self.repeats):
                y = self.n1(z)
                z = z + self.self_attn(y, y, y, need_weights=False)[0]
                z = z + self.mlp(self.n2(z))
            return self.head(z.mean(1))

    torch.manual_seed(167)
    export_nets(torch, out, 167, (("gpt_decode_b1_t8", GptDecode, torch.randint(0, 8000, (1, 8))),
                                  ("gru_cells_b4_s16", GruCells, (4, 64, 32)),
                                  ("wide_deep_b32", WideDeep, (torch.randint(0, 5000, (32, 8)), torch.rand(32, 32),
                                                               torch.randint(0, 50000, (32, 6)))),
                                  ("seq2seq_attn_b2_s10", Seq2SeqAttn, torch.randint(0, 4000, (2, 20))),
                                  ("convnext_lite_b2_128", ConvNextLite, (2, 3, 128, 128)),
                                  ("perceiver_lite_b2", PerceiverLite, (2, 1024, 64))),
                opset=17)
    return 0


def export_sixty_eighth_set(torch, out):
    # Session 57, at its start (after session 56's last change), before any measurement of these models.
    nn = torch.nn
    F = torch.nn.functional

    class LlamaRope(nn.Module):  # a LLaMA-style decoder over 16 tokens: RMSNorm, rotary position embeddings (cos/sin
        # tables, rotate-half), causal attention (d 512, 8 heads, no biases), a SwiGLU MLP of 1408, an untied 6000-word head
        def __init__(self, vocab=6000, d=512, layers=4, t=16, ff=1408):
            super().__init__()
            self.h = 8
            self.emb = nn.Embedding(vocab, d)
            self.layers = nn.ModuleList(nn.ModuleList([nn.Linear(d, 3 * d, bias=False), nn.Linear(d, d, bias=False),
                                                       nn.Linear(d, ff, bias=False), nn.Linear(d, ff, bias=False),
                                                       nn.Linear(ff, d, bias=False)]) for _ in range(layers))
            self.g = nn.ParameterList(nn.Parameter(1 + 0.1 * torch.randn(d)) for _ in range(2 * layers + 1))
            self.head = nn.Linear(d, vocab, bias=False)
            hd = d // self.h
            inv = 1.0 / (10000 ** (torch.arange(0, hd, 2).float() / hd))
            ang = torch.arange(t).float()[:, None] * inv[None]
            self.register_buffer("cos", torch.cat([ang.cos(), ang.cos()], -1))
            self.register_buffer("sin", torch.cat([ang.sin(), ang.sin()], -1))
            self.register_buffer("mask", torch.triu(torch.full((t, t), float("-inf")), 1))

        def norm(self, x, i):
            return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * self.g[i]

        def rope(self, x):
            half = x.shape[-1] // 2
            rot = torch.cat([-x[..., half:], x[..., :half]], -1)
            return x * self.cos + rot * self.sin

        def forward(self, ids):  # [1, 16]
            x = self.emb(ids)
            b, t, d = x.shape
            for i, (qkv, o, w1, w3, w2) in enumerate(self.layers):
                q, k, v = qkv(self.norm(x, 2 * i)).reshape(b, t, 3, self.h, d // self.h).permute(2, 0, 3, 1, 4)
                q, k = self.rope(q), self.rope(k)
                a = torch.softmax(q @ k.transpose(-1, -2) / (d // self.h) ** 0.5 + self.mask, -1)
                x = x + o((a @ v).transpose(1, 2).reshape(b, t, d))
                y = self.norm(x, 2 * i + 1)
                x = x + w2(F.silu(w1(y)) * w3(y))
            return self.head(self.norm(x, 2 * len(self.layers)))

    class BertMini(nn.Module):  # a BERT-style post-norm encoder: word, position and segment embeddings, 4 layers of d 256
        # (4 heads, GELU 1024) with an additive padding mask from the ids, a tanh pooler and a 2-way classifier
        def __init__(self, vocab=8000, d=256, layers=4, t=128):
            super().__init__()
            self.word, self.pos, self.seg = nn.Embedding(vocab, d), nn.Embedding(t, d), nn.Embedding(2, d)
            self.ln = nn.LayerNorm(d)
            self.enc = nn.ModuleList(nn.ModuleList([nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d),
                                                    nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.Linear(4 * d, d),
                                                    nn.LayerNorm(d)]) for _ in range(layers))
            self.pool = nn.Linear(d, d)
            self.cls = nn.Linear(d, 2)
            self.h = 4

        def forward(self, ids):  # [8, 128]
            b, t = ids.shape
            seg = (torch.arange(t) >= t // 2).long()[None].expand(b, t)
            x = self.ln(self.word(ids) + self.pos(torch.arange(t))[None] + self.seg(seg))
            bias = ((ids == 0).float() * -10000.0)[:, None, None, :]
            d = x.shape[-1]
            for wq, wk, wv, wo, ln1, f1, f2, ln2 in self.enc:
                split = lambda y: y.reshape(b, t, self.h, d // self.h).transpose(1, 2)
                a = torch.softmax(split(wq(x)) @ split(wk(x)).transpose(-1, -2) / (d // self.h) ** 0.5 + bias, -1)
                x = ln1(x + wo((a @ split(wv(x))).transpose(1, 2).reshape(b, t, d)))
                x = ln2(x + f2(F.gelu(f1(x))))
            return self.cls(torch.tanh(self.pool(x[:, 0])))

    class MbV2Half(nn.Module):  # MobileNetV2 at width 0.5 written out: inverted residuals (expand 6, ReLU6 as Clip,
        # depthwise 3x3, linear projection), a 1x1 to 640 and a pooled 100-way head
        def __init__(self, classes=100):
            super().__init__()
            cfg = [(1, 8, 1, 1), (6, 12, 2, 2), (6, 16, 3, 2), (6, 32, 4, 2), (6, 48, 3, 1), (6, 80, 3, 2), (6, 160, 1, 1)]
            layers = [nn.Conv2d(3, 16, 3, 2, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU6()]
            c = 16
            self.blocks = nn.ModuleList()
            for e, oc, n, s in cfg:
                for i in range(n):
                    hid = c * e
                    body = ([nn.Conv2d(c, hid, 1, bias=False), nn.BatchNorm2d(hid), nn.ReLU6()] if e != 1 else []) + [
                        nn.Conv2d(hid, hid, 3, s if i == 0 else 1, 1, groups=hid, bias=False), nn.BatchNorm2d(hid), nn.ReLU6(),
                        nn.Conv2d(hid, oc, 1, bias=False), nn.BatchNorm2d(oc)]
                    self.blocks.append(nn.Sequential(*body))
                    self.blocks[-1].res = (i > 0 or s == 1) and c == oc
                    c = oc
            self.stem = nn.Sequential(*layers)
            self.last = nn.Sequential(nn.Conv2d(c, 640, 1, bias=False), nn.BatchNorm2d(640), nn.ReLU6())
            self.fc = nn.Linear(640, classes)

        def forward(self, x):  # [4, 3, 128, 128]
            x = self.stem(x)
            for blk in self.blocks:
                x = x + blk(x) if blk.res else blk(x)
            return self.fc(self.last(x).mean((2, 3)))

    class BiLstmCtc(nn.Module):  # a speech recogniser: two stacked bidirectional LSTM layers (ONNX LSTM) of 256 over 64
        # frames of 80 log-mel features, a 40-symbol projection and log-softmax
        def __init__(self):
            super().__init__()
            self.lstm = nn.LSTM(80, 256, num_layers=2, bidirectional=True, batch_first=True)
            self.out = nn.Linear(512, 40)

        def forward(self, x):  # [8, 64, 80]
            return self.out(self.lstm(x)[0]).log_softmax(-1)

    class VitS(nn.Module):  # ViT-S/16 cut to 6 layers at 224: 196 patches and a class token of d 384 (6 heads, GELU
        # 1536), pre-norm, a 1000-way head; batch 1
        def __init__(self, d=384, layers=6, classes=1000):
            super().__init__()
            self.patch = nn.Conv2d(3, d, 16, 16)
            self.cls = nn.Parameter(torch.randn(1, 1, d) * 0.02)
            self.pos = nn.Parameter(torch.randn(1, 197, d) * 0.02)
            layer = nn.TransformerEncoderLayer(d, 6, 4 * d, activation="gelu", batch_first=True, norm_first=True)
            self.enc = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
            self.norm = nn.LayerNorm(d)
            self.head = nn.Linear(d, classes)

        def forward(self, x):  # [1, 3, 224, 224]
            x = self.patch(x).flatten(2).transpose(1, 2)
            x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], 1) + self.pos
            return self.head(self.norm(self.enc(x))[:, 0])

    class YoloDecode(nn.Module):  # a small single-scale YOLO-style detector at 320: a strided CSP-ish backbone (SiLU), a
        # 3-anchor head of 85 outputs a cell, decoded in the graph (sigmoid, grid offsets, anchors times exp)
        def __init__(self, anchors=((10, 13), (16, 30), (33, 23))):
            super().__init__()
            def cbs(i, o, k=3, s=1):
                return nn.Sequential(nn.Conv2d(i, o, k, s, k // 2, bias=False), nn.BatchNorm2d(o), nn.SiLU())
            self.backbone = nn.Sequential(cbs(3, 16, 3, 2), cbs(16, 32, 3, 2), cbs(32, 32), cbs(32, 64, 3, 2), cbs(64, 64),
                                          cbs(64, 128, 3, 2), cbs(128, 128, 1), cbs(128, 128), cbs(128, 256, 3, 2), cbs(256, 256, 1))
            self.head = nn.Conv2d(256, 3 * 85, 1)
            g = 10
            ys, xs = torch.meshgrid(torch.arange(g), torch.arange(g), indexing="ij")
            self.register_buffer("grid", torch.stack([xs, ys], -1).float().reshape(1, 1, g, g, 2))
            self.register_buffer("anchor", torch.tensor(anchors).float().reshape(1, 3, 1, 1, 2))

        def forward(self, x):  # [1, 3, 320, 320]
            p = self.head(self.backbone(x))
            b, _, h, w = p.shape
            p = p.reshape(b, 3, 85, h, w).permute(0, 1, 3, 4, 2).sigmoid()
            xy = (p[..., :2] * 2 - 0.5 + self.grid) * 32
            wh = (p[..., 2:4] * 2) ** 2 * self.anchor
            return torch.cat([xy, wh, p[..., 4:]], -1).reshape(b, -1, 85)

    torch.manual_seed(168)
    export_nets(torch, out, 168, (("llama_rope_b1_t16", LlamaRope, torch.randint(0, 6000, (1, 16))),
                                  ("bert_mini_b8_t128", BertMini, torch.randint(0, 8000, (8, 128))),
                                  ("mbv2_half_b4_128", MbV2Half, (4, 3, 128, 128)),
                                  ("bilstm_ctc_b8_t64", BiLstmCtc, (8, 64, 80)),
                                  ("vit_s6_b1_224", VitS, (1, 3, 224, 224)),
                                  ("yolo_decode_b1_320", YoloDecode, (1, 3, 320, 320))),
                opset=17)
    return 0


def export_sixty_ninth_set(torch, torchvision, out):
    # Session 57, after its changes, before any measurement of these models.
    nn = torch.nn
    F = torch.nn.functional

    class T5Dec(nn.Module):  # a T5-style decoder: 4 pre-norm layers (RMSNorm, no biases) of causal self-attention,
        # cross-attention to 32 encoder states and a ReLU MLP of 1536, d 384 (6 heads), a 4000-word head; 12 tokens
        def __init__(self, vocab=4000, d=384, layers=4, ff=1536, t=12):
            super().__init__()
            self.h = 6
            self.emb = nn.Embedding(vocab, d)
            lin = lambda i, o: nn.Linear(i, o, bias=False)
            self.layers = nn.ModuleList(nn.ModuleList([lin(d, 3 * d), lin(d, d), lin(d, d), lin(d, 2 * d), lin(d, d),
                                                       lin(d, ff), lin(ff, d)]) for _ in range(layers))
            self.g = nn.ParameterList(nn.Parameter(torch.ones(d)) for _ in range(3 * layers + 1))
            self.head = lin(d, vocab)
            self.register_buffer("mask", torch.triu(torch.full((t, t), float("-inf")), 1))

        def norm(self, x, i):
            return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * self.g[i]

        def attn(self, q, k, v, mask=None):
            b, tq, d = q.shape
            sp = lambda y: y.reshape(b, -1, self.h, d // self.h).transpose(1, 2)
            s = sp(q) @ sp(k).transpose(-1, -2)
            if mask is not None:
                s = s + mask
            return (torch.softmax(s, -1) @ sp(v)).transpose(1, 2).reshape(b, tq, d)

        def forward(self, ids, mem):  # [1, 12], [1, 32, 384]
            x = self.emb(ids)
            for i, (qkv, o, cq, ckv, co, f1, f2) in enumerate(self.layers):
                q, k, v = qkv(self.norm(x, 3 * i)).chunk(3, -1)
                x = x + o(self.attn(q, k, v, self.mask))
                k2, v2 = ckv(mem).chunk(2, -1)
                x = x + co(self.attn(cq(self.norm(x, 3 * i + 1)), k2, v2))
                x = x + f2(F.relu(f1(self.norm(x, 3 * i + 2))))
            return self.head(self.norm(x, 3 * len(self.layers)))

    class WideMlp(nn.Module):  # 16 rows through 1024 -> 4096 -> 4096 -> 4096 -> 1000 with LayerNorm and GELU (a
        # 167 MB model read once a run by products of few rows)
        def __init__(self):
            super().__init__()
            self.net = nn.Sequential(nn.Linear(1024, 4096), nn.LayerNorm(4096), nn.GELU(), nn.Linear(4096, 4096), nn.GELU(),
                                     nn.Linear(4096, 4096), nn.GELU(), nn.Linear(4096, 1000))

        def forward(self, x):  # [16, 1024]
            return self.net(x)

    class WaveRnn(nn.Module):  # a WaveRNN-style vocoder: conditioning by an upsampled mel frame, a GRUCell of 512 over
        # 16 steps, each step's 256-way sample distribution (two fully connected layers) and its argmax embedded back
        def __init__(self, hid=512, classes=256, mels=80):
            super().__init__()
            self.cond = nn.Linear(mels, 128)
            self.emb = nn.Embedding(classes, 64)
            self.cell = nn.GRUCell(128 + 64, hid)
            self.fc1, self.fc2 = nn.Linear(hid, hid), nn.Linear(hid, classes)

        def forward(self, mel):  # [2, 16, 80]
            c = torch.relu(self.cond(mel))
            h = c.new_zeros(mel.shape[0], self.cell.hidden_size)
            s = torch.zeros(mel.shape[0], dtype=torch.long)
            outs = []
            for t in range(mel.shape[1]):
                h = self.cell(torch.cat([c[:, t], self.emb(s)], 1), h)
                logits = self.fc2(torch.relu(self.fc1(h)))
                outs.append(logits)
                s = logits.argmax(1)
            return torch.stack(outs, 1)

    class SqueezeBert(nn.Module):  # a SqueezeBERT-style encoder: Q, K, V and the MLP as grouped 1x1 Conv1d (4 groups)
        # over [b, d, t], LayerNorm over channels by transposes, 4 layers of d 256 (4 heads), mean-pooled 3-way head
        def __init__(self, vocab=6000, d=256, layers=4, g=4):
            super().__init__()
            self.emb = nn.Embedding(vocab, d)
            self.pos = nn.Parameter(torch.randn(1, d, 64) * 0.02)
            conv = lambda i, o: nn.Conv1d(i, o, 1, groups=g)
            self.layers = nn.ModuleList(nn.ModuleList([conv(d, d), conv(d, d), conv(d, d), conv(d, d), nn.LayerNorm(d),
                                                       conv(d, 4 * d), conv(4 * d, d), nn.LayerNorm(d)]) for _ in range(layers))
            self.head = nn.Linear(d, 3)
            self.h = 4

        def forward(self, ids):  # [4, 64]
            x = self.emb(ids).transpose(1, 2) + self.pos
            b, d, t = x.shape
            for q, k, v, o, n1, f1, f2, n2 in self.layers:
                sp = lambda y: y.reshape(b, self.h, d // self.h, t)
                a = torch.softmax(sp(q(x)).transpose(-1, -2) @ sp(k(x)) / (d // self.h) ** 0.5, -1)
                y = (sp(v(x)) @ a.transpose(-1, -2)).reshape(b, d, t)
                x = n1((x + o(y)).transpose(1, 2)).transpose(1, 2)
                x = n2((x + f2(F.gelu(f1(x)))).transpose(1, 2)).transpose(1, 2)
            return self.head(x.mean(2))

    class DeiT(nn.Module):  # a DeiT-style ViT at 96 with 8x8 patches: class and distillation tokens, 6 pre-norm layers
        # of d 192 (3 heads), the two heads averaged
        def __init__(self, d=192, layers=6, classes=100):
            super().__init__()
            self.patch = nn.Conv2d(3, d, 8, 8)
            self.cls, self.dist = nn.Parameter(torch.randn(1, 1, d) * 0.02), nn.Parameter(torch.randn(1, 1, d) * 0.02)
            self.pos = nn.Parameter(torch.randn(1, 146, d) * 0.02)
            layer = nn.TransformerEncoderLayer(d, 3, 4 * d, activation="gelu", batch_first=True, norm_first=True)
            self.enc = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
            self.norm = nn.LayerNorm(d)
            self.h1, self.h2 = nn.Linear(d, classes), nn.Linear(d, classes)

        def forward(self, x):  # [4, 3, 96, 96]
            x = self.patch(x).flatten(2).transpose(1, 2)
            b = x.shape[0]
            x = torch.cat([self.cls.expand(b, -1, -1), self.dist.expand(b, -1, -1), x], 1) + self.pos
            x = self.norm(self.enc(x))
            return (self.h1(x[:, 0]) + self.h2(x[:, 1])) / 2

    torch.manual_seed(169)
    export_nets(torch, out, 169, (("t5_dec_b1_t12", T5Dec, (torch.randint(0, 4000, (1, 12)), torch.randn(1, 32, 384))),
                                  ("wide_mlp_b16", WideMlp, (16, 1024)),
                                  ("wavernn_lite_b2_s16", WaveRnn, (2, 16, 80)),
                                  ("squeezebert_lite_b4_t64", SqueezeBert, torch.randint(0, 6000, (4, 64))),
                                  ("deit_lite_b4_96", DeiT, (4, 3, 96, 96))),
                opset=17)
    export_one(torch, out, 169, "resnet34_b1_160", lambda: torchvision.models.resnet34(weights=None), (1, 3, 160, 160))
    return 0


def export_seventieth_set(torch, torchvision, out):
    # Session 58, after its change, before any measurement of these models.
    nn = torch.nn
    F = torch.nn.functional

    class Swin(nn.Module):  # a Swin-style network at 112: 4x4 patches to 96 channels, two stages of two blocks
        # (window attention over 7x7 windows, the second block's windows shifted by torch.roll, a GELU MLP), patch
        # merging between them, 3 and 6 heads, mean-pooled 100-way head
        def __init__(self, d=96, classes=100, win=7):
            super().__init__()
            self.win = win
            self.patch = nn.Conv2d(3, d, 4, 4)
            self.pnorm = nn.LayerNorm(d)
            self.stages = nn.ModuleList()
            for i, (c, h) in enumerate(((d, 3), (2 * d, 6))):
                blocks = nn.ModuleList(nn.ModuleList([nn.LayerNorm(c), nn.Linear(c, 3 * c), nn.Linear(c, c), nn.LayerNorm(c),
                                                      nn.Linear(c, 4 * c), nn.Linear(4 * c, c)]) for _ in range(2))
                self.stages.append(blocks)
            self.heads = (3, 6)
            self.merge_norm, self.merge = nn.LayerNorm(4 * d), nn.Linear(4 * d, 2 * d, bias=False)
            self.norm, self.head = nn.LayerNorm(2 * d), nn.Linear(2 * d, classes)

        def block(self, x, blk, heads, shift):  # x: [b, H, W, c]
            n1, qkv, proj, n2, f1, f2 = blk
            b, H, W, c = x.shape
            w = self.win
            y = n1(x)
            if shift:
                y = torch.roll(y, (-(w // 2), -(w // 2)), (1, 2))
            y = y.reshape(b, H // w, w, W // w, w, c).permute(0, 1, 3, 2, 4, 5).reshape(-1, w * w, c)
            q, k, v = qkv(y).reshape(y.shape[0], w * w, 3, heads, c // heads).permute(2, 0, 3, 1, 4)
            a = torch.softmax(q @ k.transpose(-1, -2) * (c // heads) ** -0.5, -1)
            y = proj((a @ v).transpose(1, 2).reshape(-1, w * w, c))
            y = y.reshape(b, H // w, W // w, w, w, c).permute(0, 1, 3, 2, 4, 5).reshape(b, H, W, c)
            if shift:
                y = torch.roll(y, (w // 2, w // 2), (1, 2))
            x = x + y
            return x + f2(F.gelu(f1(n2(x))))

        def forward(self, x):  # [2, 3, 112, 112]
            x = self.pnorm(self.patch(x).permute(0, 2, 3, 1))
            for i, blocks in enumerate(self.stages):
                if i == 1:
                    b, H, W, c = x.shape
                    x = torch.cat([x[:, 0::2, 0::2], x[:, 1::2, 0::2], x[:, 0::2, 1::2], x[:, 1::2, 1::2]], -1)
                    x = self.merge(self.merge_norm(x))
                for j, blk in enumerate(blocks):
                    x = self.block(x, blk, self.heads[i], j == 1)
            return self.head(self.norm(x).mean((1, 2)))

    class Conformer(nn.Module):  # a Conformer encoder: Conv2d subsampling of 80 mel bins by 4, then 3 blocks of d 144
        # (half-step Swish FFN, 4-head self-attention, a convolution module: pointwise to 2d, GLU, depthwise Conv1d of
        # 15, BatchNorm, Swish, pointwise; another half-step FFN, LayerNorm), a 40-way CTC head
        def __init__(self, d=144, blocks=3, classes=40):
            super().__init__()
            self.sub = nn.Sequential(nn.Conv2d(1, d, 3, 2), nn.ReLU(), nn.Conv2d(d, d, 3, 2), nn.ReLU())
            self.inp = nn.Linear(d * 19, d)
            ffn = lambda: nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.SiLU(), nn.Linear(4 * d, d))
            self.blocks = nn.ModuleList(nn.ModuleList([ffn(), nn.LayerNorm(d), nn.MultiheadAttention(d, 4, batch_first=True),
                                                       nn.LayerNorm(d), nn.Conv1d(d, 2 * d, 1), nn.Conv1d(d, d, 15, padding=7, groups=d),
                                                       nn.BatchNorm1d(d), nn.Conv1d(d, d, 1), ffn(), nn.LayerNorm(d)])
                                        for _ in range(blocks))
            self.head = nn.Linear(d, classes)

        def forward(self, x):  # [2, 1, 100, 80]
            x = self.sub(x)  # [2, d, 24, 19]
            b, c, t, f = x.shape
            x = self.inp(x.permute(0, 2, 1, 3).reshape(b, t, c * f))
            for f1, na, att, nc, pw1, dw, bn, pw2, f2, nf in self.blocks:
                x = x + 0.5 * f1(x)
                y = na(x)
                x = x + att(y, y, y, need_weights=False)[0]
                y = F.glu(pw1(nc(x).transpose(1, 2)), 1)
                x = x + pw2(F.silu(bn(dw(y)))).transpose(1, 2)
                x = nf(x + 0.5 * f2(x))
            return self.head(x).log_softmax(-1)

    class Dlrm(nn.Module):  # a DLRM-style recommender: 13 dense features through 13 -> 256 -> 64, eight categorical
        # features each a row of its own 20000 x 64 table, pairwise dot products of the nine vectors, 100 -> 512 -> 256 -> 1
        def __init__(self, tables=8, rows=20000, d=64):
            super().__init__()
            self.bottom = nn.Sequential(nn.Linear(13, 256), nn.ReLU(), nn.Linear(256, d), nn.ReLU())
            self.emb = nn.ModuleList(nn.Embedding(rows, d) for _ in range(tables))
            n = tables + 1
            self.register_buffer("pairs", torch.triu_indices(n, n, 1))
            self.top = nn.Sequential(nn.Linear(d + n * (n - 1) // 2, 512), nn.ReLU(), nn.Linear(512, 256), nn.ReLU(),
                                     nn.Linear(256, 1))

        def forward(self, dense, cat):  # [64, 13], [64, 8]
            x = self.bottom(dense)
            v = torch.stack([x] + [e(cat[:, i]) for i, e in enumerate(self.emb)], 1)  # [b, 9, d]
            z = v @ v.transpose(1, 2)
            z = z[:, self.pairs[0], self.pairs[1]]
            return torch.sigmoid(self.top(torch.cat([x, z], 1)))

    class UNet(nn.Module):  # a small U-Net at 128: three 2x down steps (two 3x3 Conv + BatchNorm + ReLU each, 16 to
        # 128 channels, 256 at the bottom), ConvTranspose 2x2 up-sampling, skips concatenated, a 3-class 1x1 head
        def __init__(self, ch=(16, 32, 64, 128), classes=3):
            super().__init__()
            two = lambda i, o: nn.Sequential(nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU(),
                                             nn.Conv2d(o, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU())
            self.downs = nn.ModuleList()
            prev = 3
            for c in ch:
                self.downs.append(two(prev, c))
                prev = c
            self.bottom = two(ch[-1], 2 * ch[-1])
            self.ups, self.convs = nn.ModuleList(), nn.ModuleList()
            prev = 2 * ch[-1]
            for c in reversed(ch):
                self.ups.append(nn.ConvTranspose2d(prev, c, 2, 2))
                self.convs.append(two(2 * c, c))
                prev = c
            self.head = nn.Conv2d(ch[0], classes, 1)

        def forward(self, x):  # [1, 3, 128, 128]
            skips = []
            for d in self.downs:
                x = d(x)
                skips.append(x)
                x = F.max_pool2d(x, 2)
            x = self.bottom(x)
            for up, conv, s in zip(self.ups, self.convs, reversed(skips)):
                x = conv(torch.cat([up(x), s], 1))
            return self.head(x)

    class Gpt2Head(nn.Module):  # two GPT-2-sized layers (d 768, 12 heads, GELU MLP of 3072) over 4 tokens, learned
        # positions, the word embedding tied as a 32000-word head (a 98 MB weight read by a product of 4 rows)
        def __init__(self, vocab=32000, d=768, layers=2, t=4):
            super().__init__()
            self.wte, self.wpe = nn.Embedding(vocab, d), nn.Embedding(t, d)
            layer = nn.TransformerEncoderLayer(d, 12, 4 * d, activation="gelu", batch_first=True, norm_first=True)
            self.enc = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
            self.norm = nn.LayerNorm(d)
            self.register_buffer("mask", torch.triu(torch.full((t, t), float("-inf")), 1))
            self.register_buffer("pos", torch.arange(t).unsqueeze(0))

        def forward(self, ids):  # [1, 4]
            x = self.enc(self.wte(ids) + self.wpe(self.pos), mask=self.mask)
            return self.norm(x) @ self.wte.weight.t()

    torch.manual_seed(170)
    export_nets(torch, out, 170, (("swin_lite_b2_112", Swin, (2, 3, 112, 112)),
                                  ("conformer_lite_b2_t100", Conformer, (2, 1, 100, 80)),
                                  ("dlrm_lite_b64", Dlrm, (torch.randn(64, 13), torch.randint(0, 20000, (64, 8)))),
                                  ("unet_lite_b1_128", UNet, (1, 3, 128, 128)),
                                  ("gpt2_head_b1_t4", Gpt2Head, torch.randint(0, 32000, (1, 4)))),
                opset=17)
    export_one(torch, out, 170, "efficientnet_b0_b4_128", lambda: torchvision.models.efficientnet_b0(weights=None),
               (4, 3, 128, 128))
    return 0


def export_seventy_first_set(torch, out):
    # Session 58, after its second change, before any measurement of these models.
    nn = torch.nn
    F = torch.nn.functional

    class PointNet(nn.Module):  # a PointNet classifier: shared MLPs 3 -> 64 -> 128 -> 512 as Conv1d with BatchNorm, max
        # over 1024 points, 512 -> 256 -> 40
        def __init__(self):
            super().__init__()
            layers, prev = [], 3
            for c in (64, 128, 512):
                layers += [nn.Conv1d(prev, c, 1), nn.BatchNorm1d(c), nn.ReLU()]
                prev = c
            self.mlp = nn.Sequential(*layers)
            self.head = nn.Sequential(nn.Linear(512, 256), nn.ReLU(), nn.Linear(256, 40))

        def forward(self, x):  # [8, 3, 1024]
            return self.head(self.mlp(x).amax(2))

    class Tcn(nn.Module):  # a TCN: 6 residual blocks of two dilated causal Conv1d (kernel 3, dilations 1..32, 64
        # channels, left padding then a trailing crop), a 10-way head on the last step
        def __init__(self, c=64, levels=6):
            super().__init__()
            self.inp = nn.Conv1d(16, c, 1)
            self.blocks = nn.ModuleList(nn.ModuleList([nn.Conv1d(c, c, 3, dilation=2 ** i, padding=2 * 2 ** i),
                                                       nn.Conv1d(c, c, 3, dilation=2 ** i, padding=2 * 2 ** i)])
                                        for i in range(levels))
            self.head = nn.Linear(c, 10)

        def forward(self, x):  # [4, 16, 256]
            x = self.inp(x)
            t = x.shape[2]
            for c1, c2 in self.blocks:
                y = F.relu(c1(x)[:, :, :t])
                y = F.relu(c2(y)[:, :, :t])
                x = F.relu(x + y)
            return self.head(x[:, :, -1])

    class Ghost(nn.Module):  # a GhostNet-style CNN at 128: ghost modules (a 1x1 Conv to half the channels, a 3x3
        # depthwise Conv making the other half, concatenated), strided depthwise steps, global pool, 100-way head
        def __init__(self, classes=100):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.ReLU())
            self.mods = nn.ModuleList()
            prev = 16
            for c, stride in ((32, 2), (32, 1), (64, 2), (64, 1), (128, 2), (128, 1)):
                h = c // 2
                self.mods.append(nn.ModuleList([nn.Sequential(nn.Conv2d(prev, h, 1), nn.BatchNorm2d(h), nn.ReLU()),
                                                nn.Sequential(nn.Conv2d(h, h, 3, 1, 1, groups=h), nn.BatchNorm2d(h), nn.ReLU()),
                                                nn.Conv2d(c, c, 3, stride, 1, groups=c) if stride > 1 else nn.Identity()]))
                prev = c
            self.head = nn.Linear(prev, classes)

        def forward(self, x):  # [4, 3, 128, 128]
            x = self.stem(x)
            for prim, cheap, down in self.mods:
                y = prim(x)
                x = down(torch.cat([y, cheap(y)], 1))
            return self.head(x.mean((2, 3)))

    class TwoTower(nn.Module):  # a two-tower retrieval model: a user tower (8 history items mean-pooled from a
        # 50000 x 64 item table, an age bucket embedding, MLP 128 -> 128 -> 64) and an item tower (the item's row
        # and its category's, MLP 128 -> 64), L2-normalised, their dot product per pair
        def __init__(self, items=50000, cats=500, d=64):
            super().__init__()
            self.item, self.cat, self.age = nn.Embedding(items, d), nn.Embedding(cats, d), nn.Embedding(10, d)
            self.user_mlp = nn.Sequential(nn.Linear(2 * d, 128), nn.ReLU(), nn.Linear(128, d))
            self.item_mlp = nn.Sequential(nn.Linear(2 * d, 128), nn.ReLU(), nn.Linear(128, d))

        def forward(self, hist, age, item, cat):  # [32, 8], [32], [32], [32]
            u = self.user_mlp(torch.cat([self.item(hist).mean(1), self.age(age)], 1))
            v = self.item_mlp(torch.cat([self.item(item), self.cat(cat)], 1))
            return (F.normalize(u, dim=1) * F.normalize(v, dim=1)).sum(1)

    class Rnnt(nn.Module):  # an RNN-T-style transducer: a 2-layer LSTM encoder over 40 frames of 80 features (256),
        # an embedding + LSTM prediction network over 6 labels (256), a joint network (projections added over every
        # frame and label, tanh, a 128-way output)
        def __init__(self, d=256, vocab=128):
            super().__init__()
            self.enc = nn.LSTM(80, d, 2, batch_first=True)
            self.emb = nn.Embedding(vocab, d)
            self.pred = nn.LSTM(d, d, 1, batch_first=True)
            self.je, self.jp, self.out = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, vocab)

        def forward(self, feats, labels):  # [2, 40, 80], [2, 6]
            e = self.je(self.enc(feats)[0])
            p = self.jp(self.pred(self.emb(labels))[0])
            return self.out(torch.tanh(e.unsqueeze(2) + p.unsqueeze(1))).log_softmax(-1)

    class Mixer(nn.Module):  # an MLP-Mixer at 64 with 8x8 patches (64 tokens), 4 layers of d 256: token mixing (an
        # MLP of 128 over the tokens, by a transpose) and channel mixing (an MLP of 1024), LayerNorms, 100-way head
        def __init__(self, d=256, layers=4, classes=100):
            super().__init__()
            self.patch = nn.Conv2d(3, d, 8, 8)
            self.layers = nn.ModuleList(nn.ModuleList([nn.LayerNorm(d), nn.Linear(64, 128), nn.Linear(128, 64), nn.LayerNorm(d),
                                                       nn.Linear(d, 4 * d), nn.Linear(4 * d, d)]) for _ in range(layers))
            self.norm, self.head = nn.LayerNorm(d), nn.Linear(d, classes)

        def forward(self, x):  # [8, 3, 64, 64]
            x = self.patch(x).flatten(2).transpose(1, 2)  # [b, 64, d]
            for n1, t1, t2, n2, c1, c2 in self.layers:
                x = x + t2(F.gelu(t1(n1(x).transpose(1, 2)))).transpose(1, 2)
                x = x + c2(F.gelu(c1(n2(x))))
            return self.head(self.norm(x).mean(1))

    torch.manual_seed(171)
    export_nets(torch, out, 171, (("pointnet_b8_1024", PointNet, (8, 3, 1024)),
                                  ("tcn_b4_t256", Tcn, (4, 16, 256)),
                                  ("ghostnet_lite_b4_128", Ghost, (4, 3, 128, 128)),
                                  ("two_tower_b32", TwoTower, (torch.randint(0, 50000, (32, 8)), torch.randint(0, 10, (32,)),
                                                               torch.randint(0, 50000, (32,)), torch.randint(0, 500, (32,)))),
                                  ("rnnt_lite_b2_t40", Rnnt, (torch.randn(2, 40, 80), torch.randint(0, 128, (2, 6)))),
                                  ("mixer_lite_b8_64", Mixer, (8, 3, 64, 64))),
                opset=17)
    return 0


def export_seventy_second_set(torch, torchvision, out):
    # Session 59, after its change, before any measurement of these models.
    nn = torch.nn
    F = torch.nn.functional

    class CapsNet(nn.Module):  # a capsule network on 28x28: a 9x9 Conv to 128 channels, primary capsules (a strided
        # 9x9 Conv to 16 maps of 8-d capsules, 6x6: 576 capsules), predictions for 10 classes of 16-d capsules, three
        # iterations of dynamic routing (softmax over classes, weighted sums, squash, agreement)
        def __init__(self, caps=576, classes=10):
            super().__init__()
            self.conv = nn.Conv2d(1, 128, 9)
            self.primary = nn.Conv2d(128, 128, 9, 2)
            self.W = nn.Parameter(0.05 * torch.randn(1, caps, classes, 16, 8))

        @staticmethod
        def squash(s, dim):
            n2 = (s * s).sum(dim, keepdim=True)
            return n2 / (1 + n2) * s / torch.sqrt(n2 + 1e-8)

        def forward(self, x):  # [8, 1, 28, 28]
            b = x.shape[0]
            u = self.primary(F.relu(self.conv(x)))  # [b, 128, 6, 6]
            u = u.view(b, 16, 8, 36).permute(0, 1, 3, 2).reshape(b, 576, 8)
            u = self.squash(u, 2)
            uhat = torch.matmul(self.W, u[:, :, None, :, None]).squeeze(-1)  # [b, 576, 10, 16]
            logits = torch.zeros(b, 576, 10)
            for i in range(3):
                c = logits.softmax(2)
                v = self.squash((c.unsqueeze(-1) * uhat).sum(1), 2)  # [b, 10, 16]
                if i < 2:
                    logits = logits + (uhat * v.unsqueeze(1)).sum(-1)
            return v.norm(dim=-1)

    class Gat(nn.Module):  # a two-layer graph attention network over 512 nodes of 128 features: 8 heads of 32, the
        # LeakyReLU of source and target scores, masked by a dense adjacency, softmax, ELU between layers, 16 classes
        def __init__(self, fin=128, heads=8, d=32, classes=16):
            super().__init__()
            self.heads, self.d = heads, d
            self.w1 = nn.Linear(fin, heads * d, bias=False)
            self.a1s, self.a1d = nn.Parameter(0.1 * torch.randn(heads, d)), nn.Parameter(0.1 * torch.randn(heads, d))
            self.w2 = nn.Linear(heads * d, classes, bias=False)
            self.a2s, self.a2d = nn.Parameter(0.1 * torch.randn(1, classes)), nn.Parameter(0.1 * torch.randn(1, classes))

        @staticmethod
        def attend(h, a_s, a_d, adj):  # h [heads, n, d]
            e = F.leaky_relu((h * a_s[:, None]).sum(-1)[:, :, None] + (h * a_d[:, None]).sum(-1)[:, None, :], 0.2)
            e = e.masked_fill(adj[None] == 0, -1e9)
            return torch.matmul(e.softmax(-1), h)

        def forward(self, x, adj):  # [512, 128], [512, 512]
            n = x.shape[0]
            h = self.w1(x).view(n, self.heads, self.d).transpose(0, 1)
            h = F.elu(self.attend(h, self.a1s, self.a1d, adj)).transpose(0, 1).reshape(n, -1)
            return self.attend(self.w2(h)[None], self.a2s, self.a2d, adj)[0].log_softmax(-1)

    class R2Plus1D(nn.Module):  # an R(2+1)D-style video CNN over 8 frames of 64x64: a stem, three residual stages of
        # (2+1)-D convolutions (1x3x3 spatial then 3x1x1 temporal Conv3d with BatchNorm and ReLU), strided stages
        # 2 and 3, a global pool and a 50-way head
        def __init__(self, classes=50):
            super().__init__()
            def c21(cin, cout, stride=1):
                mid = (cin + cout) // 2
                return nn.Sequential(nn.Conv3d(cin, mid, (1, 3, 3), (1, stride, stride), (0, 1, 1), bias=False),
                                     nn.BatchNorm3d(mid), nn.ReLU(),
                                     nn.Conv3d(mid, cout, (3, 1, 1), (stride, 1, 1), (1, 0, 0), bias=False),
                                     nn.BatchNorm3d(cout))
            self.stem = nn.Sequential(c21(3, 32, 2), nn.ReLU())
            self.stages = nn.ModuleList()
            self.downs = nn.ModuleList()
            prev = 32
            for c, stride in ((32, 1), (64, 2), (128, 2)):
                self.stages.append(nn.ModuleList([c21(prev, c, stride), c21(c, c)]))
                self.downs.append(nn.Sequential(nn.Conv3d(prev, c, 1, stride, bias=False), nn.BatchNorm3d(c))
                                  if stride > 1 or prev != c else nn.Identity())
                prev = c
            self.head = nn.Linear(prev, classes)

        def forward(self, x):  # [2, 3, 8, 64, 64]
            x = self.stem(x)
            for (a, b), down in zip(self.stages, self.downs):
                x = F.relu(b(F.relu(a(x))) + down(x))
            return self.head(x.mean((2, 3, 4)))

    class PtbLstm(nn.Module):  # a PTB-style language model: a 10000 x 650 embedding, a two-layer LSTM of 650 units
        # over 35 steps (ONNX LSTM), the projection tied to the embedding
        def __init__(self, vocab=10000, d=650):
            super().__init__()
            self.emb = nn.Embedding(vocab, d)
            self.lstm = nn.LSTM(d, d, 2)
            self.out = nn.Linear(d, vocab)
            self.out.weight = self.emb.weight

        def forward(self, tokens):  # [35, 4]
            return self.out(self.lstm(self.emb(tokens))[0])

    class SiameseChange(nn.Module):  # change detection over two 128x128 images: a shared 4-stage encoder (3x3 Convs,
        # BatchNorm, ReLU, max pooling), the absolute differences of the two images' features at each stage, a decoder
        # up-sampling by bilinear Resize with the differences concatenated, a 1-channel sigmoid map
        def __init__(self):
            super().__init__()
            chans = (16, 32, 64, 128)
            self.enc = nn.ModuleList()
            prev = 3
            for c in chans:
                self.enc.append(nn.Sequential(nn.Conv2d(prev, c, 3, 1, 1), nn.BatchNorm2d(c), nn.ReLU(),
                                              nn.Conv2d(c, c, 3, 1, 1), nn.BatchNorm2d(c), nn.ReLU()))
                prev = c
            self.dec = nn.ModuleList(nn.Sequential(nn.Conv2d(chans[i + 1] + chans[i], chans[i], 3, 1, 1),
                                                   nn.BatchNorm2d(chans[i]), nn.ReLU()) for i in range(3))
            self.out = nn.Conv2d(chans[0], 1, 1)

        def features(self, x):
            feats = []
            for i, stage in enumerate(self.enc):
                x = stage(x if i == 0 else F.max_pool2d(x, 2))
                feats.append(x)
            return feats

        def forward(self, a, b):  # [2, 3, 128, 128] each
            d = [torch.abs(p - q) for p, q in zip(self.features(a), self.features(b))]
            x = d[3]
            for i in (2, 1, 0):
                x = F.interpolate(x, scale_factor=2.0, mode="bilinear", align_corners=False)
                x = self.dec[i](torch.cat([x, d[i]], 1))
            return torch.sigmoid(self.out(x))

    g = torch.Generator().manual_seed(72)
    adj = ((torch.rand(512, 512, generator=g) < 0.02) | torch.eye(512, dtype=torch.bool)).float()
    torch.manual_seed(172)
    export_nets(torch, out, 172, (("capsnet_b8_28", CapsNet, (8, 1, 28, 28)),
                                  ("gat_n512", Gat, (torch.rand(512, 128), adj)),
                                  ("r2plus1d_lite_b2_8x64", R2Plus1D, (2, 3, 8, 64, 64)),
                                  ("ptb_lstm_t35_b4", PtbLstm, torch.randint(0, 10000, (35, 4))),
                                  ("siamese_change_b2_128", SiameseChange, (torch.rand(2, 3, 128, 128),
                                                                            torch.rand(2, 3, 128, 128)))),
                opset=17)
    export_one(torch, out, 172, "resnext50_b2_112", lambda: torchvision.models.resnext50_32x4d(weights=None),
               (2, 3, 112, 112))
    return 0


def export_seventy_third_set(torch, torchvision, out):
    # Session 59, after its third change, before any measurement of these models.
    nn = torch.nn
    F = torch.nn.functional

    class RbfNet(nn.Module):  # an RBF network: 4096 points of 16 features, squared distances to 512 centres
        # (|x|^2 + |c|^2 - 2 x.c), Gaussian activations exp(-gamma d), a linear head to 8 outputs
        def __init__(self, d=16, centres=512, outs=8):
            super().__init__()
            self.c = nn.Parameter(torch.randn(centres, d))
            self.log_gamma = nn.Parameter(torch.full((centres,), -2.0))
            self.head = nn.Linear(centres, outs)

        def forward(self, x):  # [4096, 16]
            d = (x * x).sum(1, keepdim=True) + (self.c * self.c).sum(1)[None] - 2 * x @ self.c.t()
            return self.head(torch.exp(-torch.exp(self.log_gamma)[None] * d))

    class PatchGan(nn.Module):  # a PatchGAN discriminator over an image pair (6 channels at 128): 4x4 Convs of
        # stride 2 to 64, 128, 256, one of stride 1 to 512, InstanceNorm and LeakyReLU(0.2), a 1-channel map
        def __init__(self):
            super().__init__()
            layers, prev = [], 6
            for i, (c, s) in enumerate(((64, 2), (128, 2), (256, 2), (512, 1))):
                layers.append(nn.Conv2d(prev, c, 4, s, 1))
                if i > 0:
                    layers.append(nn.InstanceNorm2d(c, affine=True))
                layers.append(nn.LeakyReLU(0.2))
                prev = c
            layers.append(nn.Conv2d(prev, 1, 4, 1, 1))
            self.net = nn.Sequential(*layers)

        def forward(self, a, b):  # [2, 3, 128, 128] each
            return self.net(torch.cat([a, b], 1))

    class OctConv(nn.Module):  # an octave convolution: high (full) and low (half resolution) channels, each
        # output the sum of a same-frequency Conv and the other branch's (average pooled or nearest up-sampled)
        def __init__(self, cin, cout, alpha=0.5):
            super().__init__()
            hi_in, lo_in = cin - int(alpha * cin), int(alpha * cin)
            hi_out, lo_out = cout - int(alpha * cout), int(alpha * cout)
            self.hh, self.hl = nn.Conv2d(hi_in, hi_out, 3, 1, 1), nn.Conv2d(hi_in, lo_out, 3, 1, 1)
            self.lh, self.ll = nn.Conv2d(lo_in, hi_out, 3, 1, 1), nn.Conv2d(lo_in, lo_out, 3, 1, 1)
            self.bh, self.bl = nn.BatchNorm2d(hi_out), nn.BatchNorm2d(lo_out)

        def forward(self, h, l):
            hi = self.hh(h) + F.interpolate(self.lh(l), scale_factor=2.0, mode="nearest")
            lo = self.ll(l) + self.hl(F.avg_pool2d(h, 2))
            return F.relu(self.bh(hi)), F.relu(self.bl(lo))

    class OctaveCnn(nn.Module):  # four octave-conv layers (32, 64, 64, 128 channels) at 64 with a max-pool step,
        # the branches merged at the end, a 10-way head
        def __init__(self):
            super().__init__()
            self.stem = nn.Conv2d(3, 32, 3, 1, 1)
            self.o1, self.o2 = OctConv(32, 64), OctConv(64, 64)
            self.o3, self.o4 = OctConv(64, 128), OctConv(128, 128)
            self.head = nn.Linear(128, 10)

        def forward(self, x):  # [4, 3, 64, 64]
            x = F.relu(self.stem(x))
            h, l = x[:, :16], F.avg_pool2d(x[:, 16:], 2)
            h, l = self.o2(*self.o1(h, l))
            h, l = F.max_pool2d(h, 2), F.max_pool2d(l, 2)
            h, l = self.o4(*self.o3(h, l))
            y = torch.cat([h, F.interpolate(l, scale_factor=2.0, mode="nearest")], 1)
            return self.head(y.mean((2, 3)))

    class SparsemaxAttention(nn.Module):  # one attention layer over 64 tokens of 128 (4 heads) whose weights are
        # sparsemax of the scores: sorted (TopK of all), cumulative sums, the support, the threshold
        def __init__(self, d=128, heads=4):
            super().__init__()
            self.h, self.dk = heads, d // heads
            self.qkv, self.o = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.norm = nn.LayerNorm(d)

        @staticmethod
        def sparsemax(z):  # along the last axis
            zs, _ = torch.sort(z, dim=-1, descending=True)
            k = torch.arange(1, z.shape[-1] + 1, dtype=z.dtype)
            cs = zs.cumsum(-1)
            support = (1 + k * zs > cs).to(z.dtype)
            kz = support.sum(-1, keepdim=True)
            tau = ((cs * support).max(-1, keepdim=True)[0] - 1) / kz
            return torch.clamp(z - tau, min=0)

        def forward(self, x):  # [8, 64, 128]
            b, t, d = x.shape
            q, k, v = self.qkv(self.norm(x)).view(b, t, 3, self.h, self.dk).permute(2, 0, 3, 1, 4)
            a = self.sparsemax(q @ k.transpose(-1, -2) / self.dk ** 0.5)
            return x + self.o((a @ v).transpose(1, 2).reshape(b, t, d))

    class TabNetLite(nn.Module):  # a TabNet-style model over 64 numeric features at batch 256: 3 decision steps,
        # each an attentive transformer (a Linear and BatchNorm, the prior scale, a softmax mask) and a feature
        # transformer (two GLU blocks), the steps' ReLU outputs summed, a 4-way head
        def __init__(self, f=64, d=32, steps=3):
            super().__init__()
            self.bn = nn.BatchNorm1d(f)
            self.att = nn.ModuleList(nn.Sequential(nn.Linear(d, f), nn.BatchNorm1d(f)) for _ in range(steps))
            self.ft = nn.ModuleList(nn.ModuleList([nn.Linear(f, 4 * d), nn.Linear(2 * d, 4 * d)]) for _ in range(steps))
            self.first = nn.Linear(f, 2 * d)
            self.head = nn.Linear(d, 4)

        def forward(self, x):  # [256, 64]
            x = self.bn(x)
            a = self.first(x)[:, :32]
            prior = torch.ones_like(x)
            out = 0
            for att, (g1, g2) in zip(self.att, self.ft):
                m = torch.softmax(att(a) * prior, -1)
                prior = prior * (1.3 - m)
                h = F.glu(g1(m * x))
                h = (h + F.glu(g2(h))) * 0.7071
                out = out + F.relu(h[:, :32])
                a = h[:, 32:]
            return self.head(out)

    torch.manual_seed(173)
    export_nets(torch, out, 173, (("rbf_net_n4096", RbfNet, (4096, 16)),
                                  ("patchgan_b2_128", PatchGan, (torch.rand(2, 3, 128, 128), torch.rand(2, 3, 128, 128))),
                                  ("octave_cnn_b4_64", OctaveCnn, (4, 3, 64, 64)),
                                  ("sparsemax_attn_b8_t64", SparsemaxAttention, (8, 64, 128)),
                                  ("tabnet_lite_b256", TabNetLite, (256, 64))),
                opset=17)
    export_one(torch, out, 173, "googlenet_b4_96",
               lambda: torchvision.models.googlenet(weights=None, aux_logits=False, init_weights=True), (4, 3, 96, 96))
    return 0


def export_seventy_fourth_set(torch, torchvision, out):
    # Session 60, before any change and before any measurement of these models.
    nn = torch.nn
    F = torch.nn.functional

    class SruLayer(nn.Module):  # a simple recurrent unit: one Linear for the candidate, forget and reset gates,
        # an elementwise recurrence c = f c + (1 - f) x~, h = r tanh(c) + (1 - r) x
        def __init__(self, d):
            super().__init__()
            self.w = nn.Linear(d, 3 * d)
            self.vf, self.vr = nn.Parameter(torch.randn(d) * 0.1), nn.Parameter(torch.randn(d) * 0.1)

        def forward(self, x):  # [T, B, D]
            xt, fx, rx = self.w(x).chunk(3, -1)
            c = torch.zeros_like(x[0])
            hs = []
            for t in range(x.shape[0]):
                f = torch.sigmoid(fx[t] + self.vf * c)
                r = torch.sigmoid(rx[t] + self.vr * c)
                c = f * c + (1 - f) * xt[t]
                hs.append(r * torch.tanh(c) + (1 - r) * x[t])
            return torch.stack(hs)

    class SruEncoder(nn.Module):  # an embedding of 5000 words to 256, two SRU layers over 64 steps, a 5000-way head
        def __init__(self, vocab=5000, d=256):
            super().__init__()
            self.emb, self.l1, self.l2 = nn.Embedding(vocab, d), SruLayer(d), SruLayer(d)
            self.head = nn.Linear(d, vocab)

        def forward(self, tok):  # [64, 16] int64
            return self.head(self.l2(self.l1(self.emb(tok))))

    class LightConv(nn.Module):  # a LightConv block: a GLU input projection, a depthwise kernel of width 7 per head
        # (8 heads) normalised by softmax and shared by the head's channels, applied as a sum of shifted slices
        def __init__(self, d=256, heads=8, k=7):
            super().__init__()
            self.h, self.k = heads, k
            self.inp, self.out = nn.Linear(d, 2 * d), nn.Linear(d, d)
            self.w = nn.Parameter(torch.randn(heads, k))
            self.norm = nn.LayerNorm(d)
            self.ffn = nn.Sequential(nn.Linear(d, 4 * d), nn.ReLU(), nn.Linear(4 * d, d))
            self.norm2 = nn.LayerNorm(d)

        def forward(self, x):  # [B, T, D]
            b, t, d = x.shape
            y = F.glu(self.inp(x), -1)
            w = torch.softmax(self.w, -1).repeat_interleave(d // self.h, 0)  # [D, K]
            yp = F.pad(y.transpose(1, 2), (self.k // 2, self.k // 2))  # [B, D, T + K - 1]
            z = sum(yp[:, :, i:i + t] * w[:, i:i + 1] for i in range(self.k))
            x = self.norm(x + self.out(z.transpose(1, 2)))
            return self.norm2(x + self.ffn(x))

    class LightConvEncoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.Sequential(LightConv(), LightConv(), LightConv())

        def forward(self, x):  # [8, 128, 256]
            return self.blocks(x)

    class TsmBlock(nn.Module):  # a basic residual block after a temporal shift of an eighth of the channels forward
        # and an eighth back along the frames
        def __init__(self, c, frames):
            super().__init__()
            self.f = frames
            self.c1, self.b1 = nn.Conv2d(c, c, 3, 1, 1, bias=False), nn.BatchNorm2d(c)
            self.c2, self.b2 = nn.Conv2d(c, c, 3, 1, 1, bias=False), nn.BatchNorm2d(c)

        def shift(self, x):
            nt, c, h, w = x.shape
            x = x.view(nt // self.f, self.f, c, h, w)
            fold = c // 8
            fwd = torch.cat([torch.zeros_like(x[:, :1, :fold]), x[:, :-1, :fold]], 1)
            back = torch.cat([x[:, 1:, fold:2 * fold], torch.zeros_like(x[:, :1, fold:2 * fold])], 1)
            return torch.cat([fwd, back, x[:, :, 2 * fold:]], 2).view(nt, c, h, w)

        def forward(self, x):
            y = F.relu(self.b1(self.c1(self.shift(x))))
            return F.relu(x + self.b2(self.c2(y)))

    class TsmResNet(nn.Module):  # 2 clips of 8 frames at 56: a stem, stages of 64, 128, 256 channels (two blocks
        # each, strided Convs between), the clip's frames averaged, a 50-way head
        def __init__(self, frames=8):
            super().__init__()
            self.f = frames
            self.stem = nn.Sequential(nn.Conv2d(3, 64, 3, 1, 1, bias=False), nn.BatchNorm2d(64), nn.ReLU())
            layers, prev = [], 64
            for i, c in enumerate((64, 128, 256)):
                if i:
                    layers += [nn.Conv2d(prev, c, 3, 2, 1, bias=False), nn.BatchNorm2d(c), nn.ReLU()]
                layers += [TsmBlock(c, frames), TsmBlock(c, frames)]
                prev = c
            self.body = nn.Sequential(*layers)
            self.head = nn.Linear(256, 50)

        def forward(self, x):  # [16, 3, 56, 56]: 2 clips x 8 frames
            y = self.body(self.stem(x)).mean((2, 3))
            return self.head(y.view(-1, self.f, y.shape[1]).mean(1))

    class SpatialSoftmaxNet(nn.Module):  # a deep spatial autoencoder's encoder: three Convs to 32 maps at 64x64,
        # a spatial softmax over each map, the expected x and y of each (64 keypoint coordinates), a small MLP
        def __init__(self, maps=32, size=64):
            super().__init__()
            self.conv = nn.Sequential(nn.Conv2d(3, 64, 5, 1, 2), nn.ReLU(), nn.Conv2d(64, 32, 3, 1, 1), nn.ReLU(),
                                      nn.Conv2d(32, maps, 3, 1, 1))
            lin = torch.linspace(-1.0, 1.0, size)
            self.register_buffer("px", lin.repeat(size))
            self.register_buffer("py", lin.repeat_interleave(size))
            self.temp = nn.Parameter(torch.ones(1))
            self.mlp = nn.Sequential(nn.Linear(2 * maps, 128), nn.ReLU(), nn.Linear(128, 7))

        def forward(self, x):  # [32, 3, 64, 64]
            f = self.conv(x)
            b, c, h, w = f.shape
            p = torch.softmax(f.view(b, c, h * w) / self.temp, -1)
            kp = torch.cat([(p * self.px).sum(-1), (p * self.py).sum(-1)], 1)
            return self.mlp(kp)

    class EchoStateNet(nn.Module):  # a 512-unit leaky reservoir (tanh, leak 0.3) driven by 16 inputs over 50 steps
        # at batch 64, its states read out by a Linear to 4
        def __init__(self, n=512, d=16, leak=0.3):
            super().__init__()
            self.win = nn.Linear(d, n, bias=False)
            self.w = nn.Linear(n, n, bias=False)
            self.leak = leak
            self.out = nn.Linear(n, 4)

        def forward(self, u):  # [50, 64, 16]
            x = torch.zeros(u.shape[1], self.w.in_features)
            ys = []
            for t in range(u.shape[0]):
                x = (1 - self.leak) * x + self.leak * torch.tanh(self.win(u[t]) + self.w(x))
                ys.append(self.out(x))
            return torch.stack(ys)

    torch.manual_seed(174)
    export_nets(torch, out, 174, (("sru_lm_b16_t64", SruEncoder, torch.randint(0, 5000, (64, 16))),
                                  ("lightconv_enc_b8_t128", LightConvEncoder, (8, 128, 256)),
                                  ("tsm_resnet_2x8_56", TsmResNet, (16, 3, 56, 56)),
                                  ("spatial_softmax_b32_64", SpatialSoftmaxNet, (32, 3, 64, 64)),
                                  ("echo_state_b64_t50", EchoStateNet, (50, 64, 16))),
                opset=17)
    export_one(torch, out, 174, "resnet18_b16_64", lambda: torchvision.models.resnet18(weights=None), (16, 3, 64, 64))
    return 0


def export_seventy_fifth_set(torch, torchvision, out):
    # Session 60, after its two changes, before any measurement of these models.
    nn = torch.nn
    F = torch.nn.functional

    class Mab(nn.Module):  # a multihead attention block: h = LN(q + MHA(q, k)), out = LN(h + FFN(h))
        def __init__(self, d=128, heads=4):
            super().__init__()
            self.h, self.dk = heads, d // heads
            self.q, self.k, self.v, self.o = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
            self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d))

        def forward(self, x, y):
            b, n, d = x.shape
            m = y.shape[1]
            q = self.q(x).view(b, n, self.h, self.dk).transpose(1, 2)
            k = self.k(y).view(b, m, self.h, self.dk).transpose(1, 2)
            v = self.v(y).view(b, m, self.h, self.dk).transpose(1, 2)
            a = torch.softmax(q @ k.transpose(-1, -2) / self.dk ** 0.5, -1) @ v
            h = self.n1(x + self.o(a.transpose(1, 2).reshape(b, n, d)))
            return self.n2(h + self.ff(h))

    class IsabEncoder(nn.Module):  # two induced set attention blocks (32 inducing points) over sets of 512
        # points of 3, pooling by attention with one seed, a 10-way head
        def __init__(self, d=128, m=32):
            super().__init__()
            self.inp = nn.Linear(3, d)
            self.ind = nn.ParameterList([nn.Parameter(torch.randn(1, m, d)) for _ in range(2)])
            self.mab = nn.ModuleList([Mab(d) for _ in range(4)])
            self.seed = nn.Parameter(torch.randn(1, 1, d))
            self.pool = Mab(d)
            self.head = nn.Linear(d, 10)

        def forward(self, x):  # [8, 512, 3]
            x = self.inp(x)
            for i in range(2):
                h = self.mab[2 * i](self.ind[i].expand(x.shape[0], -1, -1), x)
                x = self.mab[2 * i + 1](x, h)
            return self.head(self.pool(self.seed.expand(x.shape[0], -1, -1), x)[:, 0])

    class MaLstm(nn.Module):  # a Manhattan LSTM: two sentences of 40 words (embedding 300, 20000 words) through
        # one shared LSTM of 128, similarity exp(-|h1 - h2|_1)
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(20000, 300)
            self.lstm = nn.LSTM(300, 128, batch_first=True)

        def forward(self, a, b):  # [32, 40] int64 each
            _, (ha, _) = self.lstm(self.emb(a))
            _, (hb, _) = self.lstm(self.emb(b))
            return torch.exp(-(ha[0] - hb[0]).abs().sum(-1))

    class AdaIn(nn.Module):  # AdaIN style transfer: a VGG-like encoder (64, 128, 256 channels, two max-pools) of a
        # content and a style image, the content's instance statistics replaced by the style's, a decoder with
        # nearest up-sampling back to 3 channels
        def __init__(self):
            super().__init__()
            def block(i, o):
                return [nn.Conv2d(i, o, 3, 1, 1), nn.ReLU()]
            self.enc = nn.Sequential(*block(3, 64), *block(64, 64), nn.MaxPool2d(2), *block(64, 128),
                                     *block(128, 128), nn.MaxPool2d(2), *block(128, 256))
            self.dec = nn.Sequential(*block(256, 128), nn.Upsample(scale_factor=2.0, mode="nearest"), *block(128, 128),
                                     *block(128, 64), nn.Upsample(scale_factor=2.0, mode="nearest"), *block(64, 64),
                                     nn.Conv2d(64, 3, 3, 1, 1))

        def forward(self, c, s):  # [2, 3, 128, 128] each
            fc, fs = self.enc(c), self.enc(s)
            mc, sc = fc.mean((2, 3), keepdim=True), fc.std((2, 3), keepdim=True) + 1e-5
            ms, ss = fs.mean((2, 3), keepdim=True), fs.std((2, 3), keepdim=True) + 1e-5
            return self.dec((fc - mc) / sc * ss + ms)

    class NatureDqn(nn.Module):  # the Nature DQN: Convs 8x8/4 to 32, 4x4/2 to 64, 3x3/1 to 64, a 512-unit
        # layer and 18 action values, over stacks of 4 frames of 84x84
        def __init__(self):
            super().__init__()
            self.net = nn.Sequential(nn.Conv2d(4, 32, 8, 4), nn.ReLU(), nn.Conv2d(32, 64, 4, 2), nn.ReLU(),
                                     nn.Conv2d(64, 64, 3, 1), nn.ReLU(), nn.Flatten(), nn.Linear(3136, 512),
                                     nn.ReLU(), nn.Linear(512, 18))

        def forward(self, x):  # [32, 4, 84, 84]
            return self.net(x)

    class Grn(nn.Module):  # a gated residual network: ELU(W1 x), W2, a GLU gate, LayerNorm of the residual
        def __init__(self, i, d, o):
            super().__init__()
            self.skip = nn.Linear(i, o) if i != o else nn.Identity()
            self.w1, self.w2, self.gate = nn.Linear(i, d), nn.Linear(d, d), nn.Linear(d, 2 * o)
            self.norm = nn.LayerNorm(o)

        def forward(self, x):
            return self.norm(self.skip(x) + F.glu(self.gate(self.w2(F.elu(self.w1(x)))), -1))

    class VariableSelection(nn.Module):  # TFT-style variable selection over 16 variables of 8 features at 48
        # time steps (batch 32): one GRN per variable, softmax weights from a GRN over all, the weighted sum,
        # two GRNs after it, a 3-quantile head
        def __init__(self, nv=16, f=8, d=64):
            super().__init__()
            self.nv, self.f = nv, f
            self.per = nn.ModuleList([Grn(f, d, d) for _ in range(nv)])
            self.sel = Grn(nv * f, d, nv)
            self.post = nn.Sequential(Grn(d, d, d), Grn(d, d, d))
            self.head = nn.Linear(d, 3)

        def forward(self, x):  # [32, 48, 128]
            w = torch.softmax(self.sel(x), -1)  # [32, 48, 16]
            parts = torch.stack([g(x[..., i * self.f:(i + 1) * self.f]) for i, g in enumerate(self.per)], -1)
            return self.head(self.post((parts * w.unsqueeze(-2)).sum(-1)))

    torch.manual_seed(175)
    export_nets(torch, out, 175, (("isab_encoder_b8_n512", IsabEncoder, (8, 512, 3)),
                                  ("malstm_b32_t40", MaLstm,
                                   (torch.randint(0, 20000, (32, 40)), torch.randint(0, 20000, (32, 40)))),
                                  ("adain_style_b2_128", AdaIn, (torch.rand(2, 3, 128, 128), torch.rand(2, 3, 128, 128))),
                                  ("nature_dqn_b32_84", NatureDqn, (32, 4, 84, 84)),
                                  ("tft_varsel_b32_t48", VariableSelection, (32, 48, 128))),
                opset=17)
    export_one(torch, out, 175, "squeezenet1_0_b8_128", lambda: torchvision.models.squeezenet1_0(weights=None),
               (8, 3, 128, 128))
    return 0


def export_seventy_sixth_set(torch, torchvision, out):
    # Session 61, before any change and before any measurement of these models.
    nn = torch.nn
    F = torch.nn.functional

    class IndRnn(nn.Module):  # two IndRNN layers (h = relu(W x + u * h), a per-unit recurrent weight) of 256
        # units over 100 steps at batch 32, a 10-way head on the last state
        def __init__(self, i=40, d=256):
            super().__init__()
            self.w1, self.w2 = nn.Linear(i, d), nn.Linear(d, d)
            self.u1, self.u2 = nn.Parameter(torch.rand(d)), nn.Parameter(torch.rand(d))
            self.head = nn.Linear(d, 10)

        def forward(self, x):  # [32, 100, 40]
            a = self.w1(x)
            h = torch.zeros_like(a[:, 0])
            hs = []
            for t in range(a.shape[1]):
                h = torch.relu(a[:, t] + self.u1 * h)
                hs.append(h)
            b = self.w2(torch.stack(hs, 1))
            g = torch.zeros_like(h)
            for t in range(b.shape[1]):
                g = torch.relu(b[:, t] + self.u2 * g)
            return self.head(g)

    class CrfTagger(nn.Module):  # a CNN tagger (embedding, two Conv1d) with a linear-chain CRF's Viterbi
        # forward pass unrolled over 32 tokens and 24 tags (max over a broadcast [B, 24, 24] a step), batch 16
        def __init__(self, vocab=8000, d=128, tags=24):
            super().__init__()
            self.emb = nn.Embedding(vocab, d)
            self.c1, self.c2 = nn.Conv1d(d, d, 3, padding=1), nn.Conv1d(d, d, 3, padding=1)
            self.out = nn.Linear(d, tags)
            self.trans = nn.Parameter(torch.randn(tags, tags) * 0.1)

        def forward(self, x):  # [16, 32] token ids
            e = self.emb(x).transpose(1, 2)
            e = torch.relu(self.c2(torch.relu(self.c1(e)))).transpose(1, 2)
            em = self.out(e)  # [16, 32, 24]
            score = em[:, 0]
            back = []
            for t in range(1, em.shape[1]):
                s = score.unsqueeze(2) + self.trans.unsqueeze(0)  # [B, from, to]
                score, idx = s.max(1)
                score = score + em[:, t]
                back.append(idx)
            return score.max(-1)[0], torch.stack(back, 1)

    class HyenaBlock(nn.Module):  # a Hyena-style operator: an in-projection to three streams, a short depthwise
        # Conv1d, a long (kernel 127) depthwise Conv1d gated twice, an out-projection; 4 blocks of 128 channels
        # over 1024 positions at batch 4
        def __init__(self, d=128):
            super().__init__()
            self.inp = nn.Linear(d, 3 * d)
            self.short = nn.Conv1d(3 * d, 3 * d, 3, padding=1, groups=3 * d)
            self.long = nn.Conv1d(d, d, 127, padding=63, groups=d)
            self.outp = nn.Linear(d, d)
            self.norm = nn.LayerNorm(d)

        def forward(self, x):  # [B, L, D]
            u = self.short(self.inp(self.norm(x)).transpose(1, 2))
            q, k, v = u.chunk(3, 1)
            y = q * self.long(k * v)
            return x + self.outp(y.transpose(1, 2))

    class Hyena(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.Sequential(*[HyenaBlock() for _ in range(4)])

        def forward(self, x):
            return self.blocks(x)

    class AftSimple(nn.Module):  # attention-free transformer (AFT-simple) layers: softmax of K over tokens, its
        # weighted sum of V, gated by sigmoid(Q); 4 layers of 256 over 256 tokens at batch 8 with GELU MLPs
        def __init__(self, d=256, layers=4):
            super().__init__()
            self.qkv = nn.ModuleList([nn.Linear(d, 3 * d) for _ in range(layers)])
            self.proj = nn.ModuleList([nn.Linear(d, d) for _ in range(layers)])
            self.mlp = nn.ModuleList([nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
                                      for _ in range(layers)])
            self.n1 = nn.ModuleList([nn.LayerNorm(d) for _ in range(layers)])
            self.n2 = nn.ModuleList([nn.LayerNorm(d) for _ in range(layers)])

        def forward(self, x):  # [8, 256, 256]
            for qkv, proj, mlp, n1, n2 in zip(self.qkv, self.proj, self.mlp, self.n1, self.n2):
                q, k, v = qkv(n1(x)).chunk(3, -1)
                ctx = (torch.softmax(k, 1) * v).sum(1, keepdim=True)
                x = x + proj(torch.sigmoid(q) * ctx)
                x = x + mlp(n2(x))
            return x

    class BlockDct(nn.Module):  # JPEG-style round trip: 8x8 blocks of a YCbCr image (a 3x3 colour matrix), a DCT
        # as two products with the 8x8 basis, division by a quantisation table, rounding, the inverse; batch 16
        # of 3x256x256
        def __init__(self):
            super().__init__()
            n = torch.arange(8.0)
            basis = torch.cos((2 * n[None, :] + 1) * n[:, None] * 3.141592653589793 / 16) * (2 / 8) ** 0.5
            basis[0] /= 2 ** 0.5
            self.register_buffer("d", basis)
            self.register_buffer("q", 1 + torch.arange(64.0).reshape(8, 8) / 4)
            self.register_buffer("m", torch.tensor([[0.299, 0.587, 0.114], [-0.169, -0.331, 0.5],
                                                    [0.5, -0.419, -0.081]]))

        def forward(self, x):  # [16, 3, 256, 256]
            b, c, h, w = x.shape
            y = torch.einsum("ij,bjhw->bihw", self.m, x) - 0.5
            blocks = y.reshape(b, c, h // 8, 8, w // 8, 8).permute(0, 1, 2, 4, 3, 5)
            coef = torch.round(self.d @ blocks @ self.d.t() / self.q)
            back = self.d.t() @ (coef * self.q) @ self.d
            return back.permute(0, 1, 2, 4, 3, 5).reshape(b, c, h, w)

    torch.manual_seed(176)
    export_nets(torch, out, 176, (("indrnn_b32_t100", IndRnn, (32, 100, 40)),
                                  ("crf_tagger_b16_t32", CrfTagger, torch.randint(0, 8000, (16, 32))),
                                  ("hyena_b4_l1024", Hyena, (4, 1024, 128)),
                                  ("aft_simple_b8_n256", AftSimple, (8, 256, 256)),
                                  ("block_dct_b16_256", BlockDct, (16, 3, 256, 256))),
                opset=17)
    export_one(torch, out, 176, "densenet121_b4_128", lambda: torchvision.models.densenet121(weights=None),
               (4, 3, 128, 128))
    return 0


def export_seventy_seventh_set(torch, torchvision, out):
    # Session 62, after the far tier's calibration change and before any measurement of these models.
    nn = torch.nn
    F = torch.nn.functional

    class ZeroDcePP(nn.Module):  # Zero-DCE++: 7 depthwise-separable Convs of 32 channels on a quarter-size
        # image give 3 curve maps, upsampled bilinearly; 8 iterations of x + r (x^2 - x) at full size
        def __init__(self, c=32):
            super().__init__()
            def sep(i, o):
                return nn.Sequential(nn.Conv2d(i, i, 3, padding=1, groups=i), nn.Conv2d(i, o, 1))
            self.c1, self.c2, self.c3, self.c4 = sep(3, c), sep(c, c), sep(c, c), sep(c, c)
            self.c5, self.c6, self.c7 = sep(2 * c, c), sep(2 * c, c), sep(2 * c, 3)

        def forward(self, x):  # [4, 3, 512, 512]
            s = F.interpolate(x, scale_factor=0.25, mode="bilinear", align_corners=False)
            a = torch.relu(self.c1(s))
            b = torch.relu(self.c2(a))
            c = torch.relu(self.c3(b))
            d = torch.relu(self.c4(c))
            e = torch.relu(self.c5(torch.cat([c, d], 1)))
            f = torch.relu(self.c6(torch.cat([b, e], 1)))
            r = torch.tanh(self.c7(torch.cat([a, f], 1)))
            r = F.interpolate(r, scale_factor=4.0, mode="bilinear", align_corners=False)
            for _ in range(8):
                x = x + r * (x * x - x)
            return x

    class NerfMlp(nn.Module):  # a NeRF-style MLP: positions and directions with 10 and 4 frequencies of sin/cos,
        # 8 layers of 256 with a skip at the 5th, density and colour heads; 16384 points
        def __init__(self, w=256):
            super().__init__()
            self.register_buffer("fp", (2.0 ** torch.arange(10.0)) * 3.141592653589793)
            self.register_buffer("fd", (2.0 ** torch.arange(4.0)) * 3.141592653589793)
            pin, din = 3 + 3 * 2 * 10, 3 + 3 * 2 * 4
            self.layers = nn.ModuleList([nn.Linear(pin, w)] + [nn.Linear(w + (pin if i == 4 else 0), w)
                                                                for i in range(7)])
            self.sigma, self.feat = nn.Linear(w, 1), nn.Linear(w, w)
            self.rgb1, self.rgb2 = nn.Linear(w + din, w // 2), nn.Linear(w // 2, 3)

        def enc(self, v, f):
            a = v.unsqueeze(-1) * f  # [N, 3, L]
            return torch.cat([v, torch.sin(a).flatten(1), torch.cos(a).flatten(1)], -1)

        def forward(self, x):  # [16384, 6]: position, direction
            p, d = self.enc(x[:, :3], self.fp), self.enc(x[:, 3:], self.fd)
            h = p
            for i, layer in enumerate(self.layers):
                h = torch.relu(layer(torch.cat([h, p], -1) if i == 5 else h))
            sigma = torch.relu(self.sigma(h))
            rgb = torch.sigmoid(self.rgb2(torch.relu(self.rgb1(torch.cat([self.feat(h), d], -1)))))
            return torch.cat([rgb, sigma], -1)

    class MinGru(nn.Module):  # a minGRU language model (z = sigmoid(W x), h~ = W' x, h = (1 - z) h + z h~), two
        # layers of 256 unrolled over 64 steps at batch 16, an embedding of 4000 words and a tied head
        def __init__(self, vocab=4000, d=256):
            super().__init__()
            self.emb = nn.Embedding(vocab, d)
            self.zh = nn.ModuleList([nn.Linear(d, 2 * d) for _ in range(2)])
            self.norm = nn.ModuleList([nn.LayerNorm(d) for _ in range(2)])

        def forward(self, x):  # [16, 64] token ids
            y = self.emb(x)
            for zh, norm in zip(self.zh, self.norm):
                z, ht = zh(norm(y)).chunk(2, -1)
                z = torch.sigmoid(z)
                h = torch.zeros_like(y[:, 0])
                hs = []
                for t in range(y.shape[1]):
                    h = (1 - z[:, t]) * h + z[:, t] * ht[:, t]
                    hs.append(h)
                y = y + torch.stack(hs, 1)
            return y @ self.emb.weight.t()

    class LogMelCnn(nn.Module):  # an STFT as a Conv1d of 512-sample windows at hop 160 (257 cosine and 257 sine
        # filters), power, 64 mel filters as a product, log, then 4 Conv2d blocks and a 35-way head; 4 clips of 1 s
        # at 16 kHz
        def __init__(self):
            super().__init__()
            n, k = torch.arange(512.0), torch.arange(257.0)
            win = 0.5 - 0.5 * torch.cos(2 * 3.141592653589793 * n / 512)
            ang = 2 * 3.141592653589793 * k[:, None] * n[None, :] / 512
            self.register_buffer("basis", torch.cat([torch.cos(ang) * win, -torch.sin(ang) * win])[:, None, :])
            self.register_buffer("mel", torch.rand(257, 64) / 16)
            chans = [1, 32, 64, 64, 128]
            self.convs = nn.ModuleList([nn.Sequential(nn.Conv2d(chans[i], chans[i + 1], 3, padding=1),
                                                      nn.BatchNorm2d(chans[i + 1]), nn.ReLU(), nn.MaxPool2d(2))
                                        for i in range(4)])
            self.head = nn.Linear(128, 35)

        def forward(self, x):  # [4, 1, 16000]
            spec = F.conv1d(x, self.basis, stride=160)  # [4, 514, 97]
            re, im = spec[:, :257], spec[:, 257:]
            power = (re * re + im * im).transpose(1, 2)  # [4, 97, 257]
            m = torch.log(power @ self.mel + 1e-6).unsqueeze(1)  # [4, 1, 97, 64]
            for conv in self.convs:
                m = conv(m)
            return self.head(m.mean((2, 3)))

    class LrAspp(nn.Module):
        def __init__(self):
            super().__init__()
            self.net = torchvision.models.segmentation.lraspp_mobilenet_v3_large(weights=None,
                                                                                 weights_backbone=None)

        def forward(self, x):
            return self.net(x)["out"]

    torch.manual_seed(177)
    export_nets(torch, out, 177, (("zero_dce_pp_b4_512", ZeroDcePP, (4, 3, 512, 512)),
                                  ("nerf_mlp_n16384", NerfMlp, (16384, 6)),
                                  ("mingru_lm_b16_t64", MinGru, torch.randint(0, 4000, (16, 64))),
                                  ("logmel_cnn_b4_16k", LogMelCnn, (4, 1, 16000)),
                                  ("lraspp_mbv3_b2_256", LrAspp, (2, 3, 256, 256))),
                opset=17)
    export_one(torch, out, 177, "efficientnet_v2_s_b2_128", lambda: torchvision.models.efficientnet_v2_s(weights=None),
               (2, 3, 128, 128))
    return 0


def export_seventy_eighth_set(torch, torchvision, out):
    # Session 62, after the depthwise Conv's activation passes entered the cost model; none of these measured
    # before. Depthwise-heavy networks at batches whose activations pass the core's own cache, and two that
    # do not (MobileNetV2 at batch 1, RegNetY's grouped Convs).
    tv = torchvision.models
    for name, make, shape in (("mobilenet_v3_large_b8_224", lambda: tv.mobilenet_v3_large(weights=None), (8, 3, 224, 224)),
                              ("mnasnet1_0_b4_224", lambda: tv.mnasnet1_0(weights=None), (4, 3, 224, 224)),
                              ("efficientnet_b0_b4_224", lambda: tv.efficientnet_b0(weights=None), (4, 3, 224, 224)),
                              ("convnext_tiny_b1_224", lambda: tv.convnext_tiny(weights=None), (1, 3, 224, 224)),
                              ("mobilenet_v2_b1_224", lambda: tv.mobilenet_v2(weights=None), (1, 3, 224, 224)),
                              ("regnet_y_400mf_b8_160", lambda: tv.regnet_y_400mf(weights=None), (8, 3, 160, 160))):
        export_one(torch, out, 178, name, make, shape)
    return 0


def export_seventy_ninth_set(torch, torchvision, out):
    # Session 64, before any change of that session; none of these measured before: channel shuffles, an
    # inception network's concatenations and pools, grouped Convs, small depthwise nets at a large batch, a
    # plain residual CNN, and a pre-norm transformer encoder.
    tv = torchvision.models
    for name, make, shape in (("shufflenet_v2_x1_0_b8_224", lambda: tv.shufflenet_v2_x1_0(weights=None), (8, 3, 224, 224)),
                              ("googlenet_b2_224", lambda: tv.googlenet(weights=None, aux_logits=False, init_weights=True),
                               (2, 3, 224, 224)),
                              ("regnet_x_800mf_b4_224", lambda: tv.regnet_x_800mf(weights=None), (4, 3, 224, 224)),
                              ("mobilenet_v3_small_b16_224", lambda: tv.mobilenet_v3_small(weights=None), (16, 3, 224, 224)),
                              ("resnet18_b8_160", lambda: tv.resnet18(weights=None), (8, 3, 160, 160)),
                              ("efficientnet_b1_b2_240", lambda: tv.efficientnet_b1(weights=None), (2, 3, 240, 240))):
        export_one(torch, out, 179, name, make, shape)

    class PreNormEncoder(torch.nn.Module):  # 4 pre-norm layers, d 256, 8 heads, GELU, over 128 tokens
        def __init__(self):
            super().__init__()
            layer = torch.nn.TransformerEncoderLayer(256, 8, 1024, dropout=0.0, activation="gelu",
                                                     batch_first=True, norm_first=True)
            self.enc = torch.nn.TransformerEncoder(layer, 4, enable_nested_tensor=False)
            self.head = torch.nn.Linear(256, 10)

        def forward(self, x):
            return self.head(self.enc(x).mean(dim=1))

    export_nets(torch, out, 179, (("prenorm_encoder_b4_t128", PreNormEncoder, (4, 128, 256)),), opset=17)
    return 0


def export_eightieth_set(torch, torchvision, out):
    # Session 65, before any change of that session; none of these measured before in these shapes: large
    # strided MaxPools and big matrix heads, an inception network's pools and asymmetric Convs, grouped Convs,
    # fire modules' concatenations, a dense network's average pools, squeeze-excite with grouped Convs, and a
    # 1-D CNN's pools and grouped Convs.
    tv = torchvision.models
    for name, make, shape in (("alexnet_b8_224", lambda: tv.alexnet(weights=None), (8, 3, 224, 224)),
                              ("inception_v3_b1_299", lambda: tv.inception_v3(weights=None, aux_logits=False,
                                                                              init_weights=True), (1, 3, 299, 299)),
                              ("resnext50_32x4d_b2_192", lambda: tv.resnext50_32x4d(weights=None), (2, 3, 192, 192)),
                              ("squeezenet1_1_b16_224", lambda: tv.squeezenet1_1(weights=None), (16, 3, 224, 224)),
                              ("densenet121_b2_224", lambda: tv.densenet121(weights=None), (2, 3, 224, 224)),
                              ("regnet_y_800mf_b4_192", lambda: tv.regnet_y_800mf(weights=None), (4, 3, 192, 192))):
        export_one(torch, out, 180, name, make, shape)

    class KeywordCNN(torch.nn.Module):  # raw 1 s audio at 16 kHz: a strided stem, then pooled grouped blocks
        def __init__(self):
            super().__init__()
            nn = torch.nn
            layers = [nn.Conv1d(1, 64, 80, stride=4), nn.BatchNorm1d(64), nn.ReLU(), nn.MaxPool1d(4)]
            c = 64
            for out_c in (128, 128, 256):
                layers += [nn.Conv1d(c, out_c, 3, padding=1, groups=8), nn.BatchNorm1d(out_c), nn.ReLU(),
                           nn.Conv1d(out_c, out_c, 1), nn.BatchNorm1d(out_c), nn.ReLU(), nn.MaxPool1d(4)]
                c = out_c
            self.body = nn.Sequential(*layers)
            self.head = nn.Linear(c, 35)

        def forward(self, x):
            return self.head(self.body(x).mean(dim=2))

    export_nets(torch, out, 180, (("keyword_cnn_b32_16k", KeywordCNN, (32, 1, 16000)),), opset=17)
    return 0


def export_eighty_first_set(torch, torchvision, out):
    # Session 65, after its pool change and before any measurement of these: stems' strided MaxPools, fire
    # modules, depthwise nets at a batch, 1-D pools at a stride, and 3-D pools.
    tv = torchvision.models
    for name, make, shape in (("resnet34_b4_160", lambda: tv.resnet34(weights=None), (4, 3, 160, 160)),
                              ("squeezenet1_0_b4_224", lambda: tv.squeezenet1_0(weights=None), (4, 3, 224, 224)),
                              ("mnasnet0_75_b8_192", lambda: tv.mnasnet0_75(weights=None), (8, 3, 192, 192))):
        export_one(torch, out, 181, name, make, shape)
    nn = torch.nn

    class M5(nn.Module):  # raw 8 kHz audio, 1 s
        def __init__(self):
            super().__init__()
            layers, c = [], 1
            for i, out_c in enumerate((32, 32, 64, 64)):
                layers += [nn.Conv1d(c, out_c, 80 if i == 0 else 3, stride=4 if i == 0 else 1,
                                     padding=0 if i == 0 else 1),
                           nn.BatchNorm1d(out_c), nn.ReLU(), nn.MaxPool1d(4)]
                c = out_c
            self.body = nn.Sequential(*layers)
            self.head = nn.Linear(c, 35)

        def forward(self, x):
            return self.head(self.body(x).mean(dim=2))

    class C3DLite(nn.Module):  # clips of 8 frames of 64x64
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(
                nn.Conv3d(3, 32, 3, padding=1), nn.ReLU(), nn.MaxPool3d((1, 2, 2)),
                nn.Conv3d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool3d(2),
                nn.Conv3d(64, 128, 3, padding=1), nn.ReLU(), nn.MaxPool3d(2),
                nn.Conv3d(128, 128, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool3d(1))
            self.head = nn.Linear(128, 10)

        def forward(self, x):
            return self.head(self.body(x).flatten(1))

    export_nets(torch, out, 181, (("m5_audio_b16_8k", M5, (16, 1, 8000)),
                                  ("c3d_lite_b2_8x64", C3DLite, (2, 3, 8, 64, 64))), opset=17)
    return 0


def export_eighty_second_set(torch, torchvision, out):
    # Session 66, after its change to pointwise Convs over activations beyond the last-level cache and before
    # any measurement of these: pointwise-heavy nets at batches whose activations exceed that cache, a
    # bottleneck ResNet, and a separable-conv net and a token-mixing MLP written here.
    tv = torchvision.models
    for name, make, shape in (("mobilenet_v2_b16_160", lambda: tv.mobilenet_v2(weights=None), (16, 3, 160, 160)),
                              ("mnasnet1_3_b4_224", lambda: tv.mnasnet1_3(weights=None), (4, 3, 224, 224)),
                              ("shufflenet_v2_x1_5_b8_192", lambda: tv.shufflenet_v2_x1_5(weights=None),
                               (8, 3, 192, 192)),
                              ("resnet50_b2_224", lambda: tv.resnet50(weights=None), (2, 3, 224, 224))):
        export_one(torch, out, 182, name, make, shape)
    nn = torch.nn

    class Separable(nn.Module):  # Xception-style entry flow at a small size
        def __init__(self):
            super().__init__()
            def sep(cin, cout):
                return nn.Sequential(nn.Conv2d(cin, cin, 3, padding=1, groups=cin, bias=False),
                                     nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU())
            self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.ReLU())
            self.body = nn.Sequential(sep(32, 64), sep(64, 128), nn.MaxPool2d(3, 2, 1),
                                      sep(128, 128), sep(128, 256), nn.MaxPool2d(3, 2, 1), sep(256, 256))
            self.head = nn.Linear(256, 10)

        def forward(self, x):
            return self.head(self.body(self.stem(x)).mean(dim=(2, 3)))

    class Mixer(nn.Module):  # MLP-Mixer blocks over 8x8 patches of 64x64 images
        def __init__(self, dim=128, tokens=64, depth=4):
            super().__init__()
            self.patch = nn.Conv2d(3, dim, 8, stride=8)
            self.blocks = nn.ModuleList(nn.ModuleDict(dict(
                n1=nn.LayerNorm(dim), tok=nn.Sequential(nn.Linear(tokens, 2 * tokens), nn.GELU(),
                                                        nn.Linear(2 * tokens, tokens)),
                n2=nn.LayerNorm(dim), ch=nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))))
                for _ in range(depth))
            self.head = nn.Linear(dim, 10)

        def forward(self, x):
            x = self.patch(x).flatten(2).transpose(1, 2)
            for b in self.blocks:
                x = x + b["tok"](b["n1"](x).transpose(1, 2)).transpose(1, 2)
                x = x + b["ch"](b["n2"](x))
            return self.head(x.mean(dim=1))

    export_nets(torch, out, 182, (("separable_b8_128", Separable, (8, 3, 128, 128)),
                                  ("mixer_b16_64", Mixer, (16, 3, 64, 64))), opset=17)
    return 0


def export_eighty_third_set(torch, torchvision, out):
    # Session 67, before any change or measurement of the session: residual nets whose block outputs lie
    # between the core's own cache and the last-level cache, squeeze-excite nets, and a U-Net and a post-norm
    # encoder written here.
    tv = torchvision.models
    for name, make, shape in (("resnet101_b1_192", lambda: tv.resnet101(weights=None), (1, 3, 192, 192)),
                              ("wide_resnet50_2_b1_160", lambda: tv.wide_resnet50_2(weights=None), (1, 3, 160, 160)),
                              ("efficientnet_b0_b4_192", lambda: tv.efficientnet_b0(weights=None), (4, 3, 192, 192)),
                              ("mobilenet_v3_large_b8_224", lambda: tv.mobilenet_v3_large(weights=None),
                               (8, 3, 224, 224))):
        export_one(torch, out, 183, name, make, shape)
    nn = torch.nn

    class UNet(nn.Module):  # three levels down and up, skips concatenated
        def __init__(self, c=(16, 32, 64, 128)):
            super().__init__()
            def block(cin, cout):
                return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(),
                                     nn.Conv2d(cout, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU())
            self.down = nn.ModuleList([block(3, c[0]), block(c[0], c[1]), block(c[1], c[2])])
            self.mid = block(c[2], c[3])
            self.up = nn.ModuleList([nn.ConvTranspose2d(c[i + 1], c[i], 2, stride=2) for i in (2, 1, 0)])
            self.dec = nn.ModuleList([block(2 * c[i], c[i]) for i in (2, 1, 0)])
            self.head = nn.Conv2d(c[0], 2, 1)

        def forward(self, x):
            skips = []
            for d in self.down:
                x = d(x)
                skips.append(x)
                x = nn.functional.max_pool2d(x, 2)
            x = self.mid(x)
            for u, d, s in zip(self.up, self.dec, reversed(skips)):
                x = d(torch.cat([u(x), s], dim=1))
            return self.head(x)

    class PostNorm(nn.Module):  # post-norm encoder layers over token ids' embeddings
        def __init__(self, dim=256, depth=4):
            super().__init__()
            self.embed = nn.Linear(32, dim)
            self.layers = nn.ModuleList(nn.TransformerEncoderLayer(dim, 4, 4 * dim, dropout=0.0, batch_first=True)
                                        for _ in range(depth))
            self.head = nn.Linear(dim, 10)

        def forward(self, x):
            x = self.embed(x)
            for layer in self.layers:
                x = layer(x)
            return self.head(x[:, 0])

    export_nets(torch, out, 183, (("unet_b2_128", UNet, (2, 3, 128, 128)),
                                  ("postnorm_encoder_b8_t64", PostNorm, (8, 64, 32))), opset=17)
    return 0



def export_eighty_fourth_set(torch, torchvision, out):
    # Session 68, before any change or measurement of the session: a deep dense network at batch 1, grouped
    # Convs at a batch, the narrowest MNASNet and ShuffleNet at batch 16 (many pointwise Convs of few input
    # channels), a plain VGG at batch 2, and a ConvMixer written here (large depthwise kernels, GELU).
    tv = torchvision.models
    for name, make, shape in (("densenet169_b1_192", lambda: tv.densenet169(weights=None), (1, 3, 192, 192)),
                              ("regnet_x_400mf_b8_160", lambda: tv.regnet_x_400mf(weights=None), (8, 3, 160, 160)),
                              ("mnasnet0_5_b16_160", lambda: tv.mnasnet0_5(weights=None), (16, 3, 160, 160)),
                              ("shufflenet_v2_x0_5_b16_192", lambda: tv.shufflenet_v2_x0_5(weights=None),
                               (16, 3, 192, 192)),
                              ("vgg13_b2_224", lambda: tv.vgg13(weights=None), (2, 3, 224, 224))):
        export_one(torch, out, 184, name, make, shape)
    nn = torch.nn

    class ConvMixer(nn.Module):  # patch embedding, then depthwise (residual) and pointwise mixing
        def __init__(self, dim=256, depth=6, kernel=9, patch=8):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, dim, patch, stride=patch), nn.GELU(), nn.BatchNorm2d(dim))
            self.blocks = nn.ModuleList(nn.ModuleDict(dict(
                dw=nn.Sequential(nn.Conv2d(dim, dim, kernel, groups=dim, padding=kernel // 2), nn.GELU(),
                                 nn.BatchNorm2d(dim)),
                pw=nn.Sequential(nn.Conv2d(dim, dim, 1), nn.GELU(), nn.BatchNorm2d(dim)))) for _ in range(depth))
            self.head = nn.Linear(dim, 10)

        def forward(self, x):
            x = self.stem(x)
            for b in self.blocks:
                x = b["pw"](x + b["dw"](x))
            return self.head(x.mean(dim=(2, 3)))

    export_nets(torch, out, 184, (("convmixer_b4_128", ConvMixer, (4, 3, 128, 128)),), opset=17)
    return 0


def export_eighty_fifth_set(torch, torchvision, out):
    # Session 69, before any change or measurement of the session: narrow networks at a batch (pointwise Convs
    # of few channels over large planes), squeeze-excitation at a batch, and an encoder-decoder written here
    # whose 1x1 Convs mix 8 to 32 channels.
    tv = torchvision.models
    for name, make, shape in (("mnasnet0_75_b16_128", lambda: tv.mnasnet0_75(weights=None), (16, 3, 128, 128)),
                              ("mobilenet_v3_small_b32_160", lambda: tv.mobilenet_v3_small(weights=None),
                               (32, 3, 160, 160)),
                              ("shufflenet_v2_x1_0_b16_128", lambda: tv.shufflenet_v2_x1_0(weights=None),
                               (16, 3, 128, 128)),
                              ("regnet_y_400mf_b8_128", lambda: tv.regnet_y_400mf(weights=None), (8, 3, 128, 128)),
                              ("mobilenet_v2_w035_b8_160", lambda: tv.mobilenet_v2(weights=None, width_mult=0.35),
                               (8, 3, 160, 160))):
        export_one(torch, out, 185, name, make, shape)
    nn = torch.nn

    class NarrowUNet(nn.Module):  # 3x3 Convs, 1x1 mixing between them, skip connections concatenated
        def __init__(self, widths=(8, 16, 32)):
            super().__init__()
            self.stem = nn.Conv2d(3, widths[0], 3, padding=1)
            self.down = nn.ModuleList()
            for a, b in zip(widths, widths[1:]):
                self.down.append(nn.Sequential(nn.Conv2d(a, b, 3, stride=2, padding=1), nn.ReLU(),
                                               nn.Conv2d(b, b, 1), nn.ReLU()))
            self.up = nn.ModuleList()
            for a, b in zip(reversed(widths[1:]), reversed(widths[:-1])):
                self.up.append(nn.Sequential(nn.Conv2d(a + b, b, 1), nn.ReLU(), nn.Conv2d(b, b, 3, padding=1),
                                             nn.ReLU()))
            self.head = nn.Conv2d(widths[0], 2, 1)

        def forward(self, x):
            x = torch.relu(self.stem(x))
            skips = []
            for d in self.down:
                skips.append(x)
                x = d(x)
            for u, s in zip(self.up, reversed(skips)):
                x = torch.nn.functional.interpolate(x, scale_factor=2, mode="nearest")
                x = u(torch.cat([x, s], dim=1))
            return self.head(x)

    export_nets(torch, out, 185, (("narrow_unet_b4_128", NarrowUNet, (4, 3, 128, 128)),), opset=17)
    return 0


def export_eighty_sixth_set(torch, torchvision, out):
    # Session 70, before any change or measurement of the session: mobile networks at a batch over small planes
    # (many pointwise Convs past and inside the own cache), a plain residual network at batch 16, and a
    # denoiser written here whose separable blocks keep the full plane (1x1 Convs of 24-48 channels at 160x160).
    tv = torchvision.models
    for name, make, shape in (("mnasnet1_0_b8_160", lambda: tv.mnasnet1_0(weights=None), (8, 3, 160, 160)),
                              ("mobilenet_v3_large_b16_128", lambda: tv.mobilenet_v3_large(weights=None),
                               (16, 3, 128, 128)),
                              ("resnet18_b16_112", lambda: tv.resnet18(weights=None), (16, 3, 112, 112)),
                              ("efficientnet_b0_b8_128", lambda: tv.efficientnet_b0(weights=None), (8, 3, 128, 128)),
                              ("shufflenet_v2_x1_5_b16_160", lambda: tv.shufflenet_v2_x1_5(weights=None),
                               (16, 3, 160, 160))):
        export_one(torch, out, 186, name, make, shape)
    nn = torch.nn

    class SeparableDenoiser(nn.Module):  # full-resolution separable residual blocks, widening then narrowing
        def __init__(self, widths=(24, 32, 48, 32, 24)):
            super().__init__()
            self.stem = nn.Conv2d(3, widths[0], 3, padding=1)
            self.blocks = nn.ModuleList()
            for a, b in zip(widths, widths[1:]):
                self.blocks.append(nn.Sequential(nn.Conv2d(a, a, 3, padding=1, groups=a), nn.BatchNorm2d(a),
                                                 nn.ReLU6(), nn.Conv2d(a, b, 1), nn.BatchNorm2d(b)))
            self.residual = [a == b for a, b in zip(widths, widths[1:])]
            self.head = nn.Conv2d(widths[-1], 3, 1)

        def forward(self, x):
            y = torch.relu(self.stem(x))
            for blk, res in zip(self.blocks, self.residual):
                z = blk(y)
                y = torch.relu(z + y) if res else torch.relu(z)
            return x - self.head(y)

    export_nets(torch, out, 186, (("separable_denoiser_b4_160", SeparableDenoiser, (4, 3, 160, 160)),), opset=17)
    return 0


def export_eighty_seventh_set(torch, torchvision, out):
    # Session 70, after the far-activation term was written: mobile and residual networks at a batch over
    # small planes, and a per-pixel MLP written here made only of 1x1 Convs (their activations 4.7 MB to
    # 19 MB a Conv at batch 4 over 96x96, past the core's own cache).
    tv = torchvision.models
    for name, make, shape in (("mobilenet_v2_w075_b8_160", lambda: tv.mobilenet_v2(weights=None, width_mult=0.75),
                               (8, 3, 160, 160)),
                              ("resnet34_b8_128", lambda: tv.resnet34(weights=None), (8, 3, 128, 128)),
                              ("mnasnet1_3_b8_128", lambda: tv.mnasnet1_3(weights=None), (8, 3, 128, 128)),
                              ("efficientnet_b1_b4_160", lambda: tv.efficientnet_b1(weights=None), (4, 3, 160, 160)),
                              ("regnet_y_800mf_b8_128", lambda: tv.regnet_y_800mf(weights=None), (8, 3, 128, 128))):
        export_one(torch, out, 187, name, make, shape)
    nn = torch.nn

    class PixelMLP(nn.Module):  # an MLP over every position: 1x1 Convs only, residual blocks
        def __init__(self, dim=32, hidden=128, depth=4):
            super().__init__()
            self.embed = nn.Conv2d(3, dim, 1)
            self.blocks = nn.ModuleList(nn.Sequential(nn.Conv2d(dim, hidden, 1), nn.GELU(), nn.Conv2d(hidden, dim, 1))
                                        for _ in range(depth))
            self.head = nn.Conv2d(dim, 3, 1)

        def forward(self, x):
            y = self.embed(x)
            for blk in self.blocks:
                y = y + blk(y)
            return self.head(y)

    export_nets(torch, out, 187, (("pixel_mlp_b4_96", PixelMLP, (4, 3, 96, 96)),), opset=17)
    return 0


def export_eighty_eighth_set(torch, torchvision, out):
    # Session 70, after its changes (a pointwise Conv's far activations, a Slice's and a large weight's far tier):
    # residual, inception and dense networks at a batch over small planes, a wide ShuffleNet, and a CNN written
    # here with a classifier of large fully connected layers read once a run.
    tv = torchvision.models
    for name, make, shape in (("resnet50_b4_128", lambda: tv.resnet50(weights=None), (4, 3, 128, 128)),
                              ("googlenet_b4_128", lambda: tv.googlenet(weights=None, aux_logits=False,
                                                                        init_weights=True), (4, 3, 128, 128)),
                              ("densenet121_b4_96", lambda: tv.densenet121(weights=None), (4, 3, 96, 96)),
                              ("squeezenet1_0_b8_160", lambda: tv.squeezenet1_0(weights=None), (8, 3, 160, 160)),
                              ("shufflenet_v2_x2_0_b8_160", lambda: tv.shufflenet_v2_x2_0(weights=None),
                               (8, 3, 160, 160))):
        export_one(torch, out, 188, name, make, shape)
    nn = torch.nn

    class MlpHeadCnn(nn.Module):  # four strided 3x3 Convs, a global pool, three large Linear layers
        def __init__(self):
            super().__init__()
            chans = (3, 64, 128, 256, 512)
            self.features = nn.Sequential(*[m for a, b in zip(chans, chans[1:])
                                            for m in (nn.Conv2d(a, b, 3, stride=2, padding=1), nn.BatchNorm2d(b),
                                                      nn.ReLU())])
            self.head = nn.Sequential(nn.Linear(512, 2048), nn.ReLU(), nn.Linear(2048, 2048), nn.ReLU(),
                                      nn.Linear(2048, 1000))

        def forward(self, x):
            return self.head(self.features(x).mean(dim=(2, 3)))

    export_nets(torch, out, 188, (("mlp_head_cnn_b16_64", MlpHeadCnn, (16, 3, 64, 64)),), opset=17)
    return 0


def export_eighty_ninth_set(torch, torchvision, out):
    # Session 71, before any change: networks at a batch over small planes, and a transformer-style feed-forward
    # stack written here whose GELU and LayerNorm run over 2-8 MB tensors (past the core's own cache).
    tv = torchvision.models
    for name, make, shape in (("regnet_x_800mf_b8_128", lambda: tv.regnet_x_800mf(weights=None), (8, 3, 128, 128)),
                              ("efficientnet_b2_b4_128", lambda: tv.efficientnet_b2(weights=None), (4, 3, 128, 128)),
                              ("resnext50_32x4d_b4_128", lambda: tv.resnext50_32x4d(weights=None), (4, 3, 128, 128)),
                              ("squeezenet1_1_b16_160", lambda: tv.squeezenet1_1(weights=None), (16, 3, 160, 160)),
                              ("mobilenet_v3_small_b32_128", lambda: tv.mobilenet_v3_small(weights=None),
                               (32, 3, 128, 128))):
        export_one(torch, out, 189, name, make, shape)
    nn = torch.nn

    class TokenFfn(nn.Module):  # pre-norm feed-forward blocks over a token sequence, no attention
        def __init__(self, dim=64, hidden=256, depth=4):
            super().__init__()
            self.blocks = nn.ModuleList(nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, hidden), nn.GELU(),
                                                      nn.Linear(hidden, dim)) for _ in range(depth))
            self.norm = nn.LayerNorm(dim)

        def forward(self, x):
            for blk in self.blocks:
                x = x + blk(x)
            return self.norm(x)

    export_nets(torch, out, 189, (("token_ffn_b8_1024", TokenFfn, (8, 1024, 64)),), opset=17)
    return 0


def export_ninetieth_set(torch, torchvision, out):
    # Session 71, after its changes: networks at a batch over small planes, and an FPN-style segmenter written
    # here with squeeze-and-excitation pools over small planes and bilinear upsampling.
    tv = torchvision.models
    for name, make, shape in (("regnet_y_1_6gf_b4_128", lambda: tv.regnet_y_1_6gf(weights=None), (4, 3, 128, 128)),
                              ("efficientnet_b3_b2_160", lambda: tv.efficientnet_b3(weights=None), (2, 3, 160, 160)),
                              ("densenet169_b4_96", lambda: tv.densenet169(weights=None), (4, 3, 96, 96)),
                              ("mnasnet0_5_b32_128", lambda: tv.mnasnet0_5(weights=None), (32, 3, 128, 128)),
                              ("resnet101_b2_128", lambda: tv.resnet101(weights=None), (2, 3, 128, 128))):
        export_one(torch, out, 190, name, make, shape)
    nn, F = torch.nn, torch.nn.functional

    class SeBlock(nn.Module):  # a strided 3x3 Conv, BatchNorm, ReLU, then squeeze-and-excitation
        def __init__(self, cin, cout):
            super().__init__()
            self.conv = nn.Sequential(nn.Conv2d(cin, cout, 3, stride=2, padding=1), nn.BatchNorm2d(cout), nn.ReLU())
            self.se = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(cout, cout // 4, 1), nn.ReLU(),
                                    nn.Conv2d(cout // 4, cout, 1), nn.Sigmoid())

        def forward(self, x):
            y = self.conv(x)
            return y * self.se(y)

    class SeFpn(nn.Module):  # four SE stages down to 1/16, a top-down path back to 1/2, a per-pixel head
        def __init__(self, widths=(24, 48, 96, 160), dim=48, classes=5):
            super().__init__()
            chans = (3,) + widths
            self.stages = nn.ModuleList(SeBlock(a, b) for a, b in zip(chans, chans[1:]))
            self.lateral = nn.ModuleList(nn.Conv2d(w, dim, 1) for w in widths)
            self.smooth = nn.Conv2d(dim, dim, 3, padding=1)
            self.head = nn.Conv2d(dim, classes, 1)

        def forward(self, x):
            feats = []
            for s in self.stages:
                x = s(x)
                feats.append(x)
            y = self.lateral[-1](feats[-1])
            for f, lat in zip(reversed(feats[:-1]), reversed(self.lateral[:-1])):
                y = F.interpolate(y, scale_factor=2.0, mode="bilinear", align_corners=False) + lat(f)
            return self.head(F.relu(self.smooth(y)))

    export_nets(torch, out, 190, (("se_fpn_b4_128", SeFpn, (4, 3, 128, 128)),), opset=17)
    return 0


def export_ninety_first_set(torch, torchvision, out):
    # Session 71, after its executor change and its last cost-model change: networks at a batch over small
    # planes, and a keypoint heatmap network written here (SE blocks, nearest upsampling, skip Adds).
    tv = torchvision.models
    for name, make, shape in (("efficientnet_b0_b16_96", lambda: tv.efficientnet_b0(weights=None), (16, 3, 96, 96)),
                              ("regnet_x_1_6gf_b4_128", lambda: tv.regnet_x_1_6gf(weights=None), (4, 3, 128, 128)),
                              ("mobilenet_v3_large_b8_160", lambda: tv.mobilenet_v3_large(weights=None),
                               (8, 3, 160, 160)),
                              ("squeezenet1_0_b16_128", lambda: tv.squeezenet1_0(weights=None), (16, 3, 128, 128)),
                              ("wide_resnet50_2_b2_112", lambda: tv.wide_resnet50_2(weights=None), (2, 3, 112, 112))):
        export_one(torch, out, 191, name, make, shape)
    nn, F = torch.nn, torch.nn.functional

    class Down(nn.Module):  # a strided 3x3 Conv, BatchNorm, ReLU, a 3x3 Conv, then squeeze-and-excitation
        def __init__(self, cin, cout):
            super().__init__()
            self.body = nn.Sequential(nn.Conv2d(cin, cout, 3, stride=2, padding=1), nn.BatchNorm2d(cout), nn.ReLU(),
                                      nn.Conv2d(cout, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU())
            self.se = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(cout, cout // 8, 1), nn.ReLU(),
                                    nn.Conv2d(cout // 8, cout, 1), nn.Sigmoid())

        def forward(self, x):
            y = self.body(x)
            return y * self.se(y)

    class HeatmapNet(nn.Module):  # down to 1/8 and back to 1/2 with skip Adds, 17 heatmaps
        def __init__(self, widths=(32, 64, 128), joints=17):
            super().__init__()
            chans = (3,) + widths
            self.down = nn.ModuleList(Down(a, b) for a, b in zip(chans, chans[1:]))
            self.reduce = nn.ModuleList(nn.Conv2d(b, a, 1) for a, b in zip(widths, widths[1:]))
            self.head = nn.Conv2d(widths[0], joints, 1)

        def forward(self, x):
            feats = []
            for d in self.down:
                x = d(x)
                feats.append(x)
            y = feats[-1]
            for f, r in zip(reversed(feats[:-1]), reversed(self.reduce)):
                y = F.interpolate(r(y), scale_factor=2.0, mode="nearest") + f
            return self.head(y)

    export_nets(torch, out, 191, (("heatmap_net_b8_96", HeatmapNet, (8, 3, 96, 96)),), opset=17)
    return 0


def export_ninety_second_set(torch, torchvision, out):
    # Session 72, after its calibration changes: networks at a batch, and a keyword-spotting network written
    # here (depthwise-separable Convs over a spectrogram, both global pools).
    tv = torchvision.models
    for name, make, shape in (("googlenet_b8_112", lambda: tv.googlenet(weights=None, aux_logits=False,
                                                                         init_weights=True), (8, 3, 112, 112)),
                              ("efficientnet_b1_b8_112", lambda: tv.efficientnet_b1(weights=None), (8, 3, 112, 112)),
                              ("shufflenet_v2_x1_0_b32_96", lambda: tv.shufflenet_v2_x1_0(weights=None),
                               (32, 3, 96, 96)),
                              ("regnet_y_400mf_b16_128", lambda: tv.regnet_y_400mf(weights=None), (16, 3, 128, 128)),
                              ("resnet50_b16_64", lambda: tv.resnet50(weights=None), (16, 3, 64, 64))):
        export_one(torch, out, 192, name, make, shape)
    nn = torch.nn

    def separable(c):  # a 3x3 depthwise Conv and a 1x1 pointwise one, each with BatchNorm and ReLU
        return nn.Sequential(nn.Conv2d(c, c, 3, padding=1, groups=c, bias=False), nn.BatchNorm2d(c), nn.ReLU(),
                             nn.Conv2d(c, c, 1, bias=False), nn.BatchNorm2d(c), nn.ReLU())

    class DsCnn(nn.Module):  # a strided 10x4 Conv, four separable blocks, average and max pools, a classifier
        def __init__(self, width=64, words=12):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(1, width, (10, 4), stride=(2, 2), padding=(5, 1), bias=False),
                                      nn.BatchNorm2d(width), nn.ReLU())
            self.blocks = nn.Sequential(*(separable(width) for _ in range(4)))
            self.avg, self.max = nn.AdaptiveAvgPool2d(1), nn.AdaptiveMaxPool2d(1)
            self.fc = nn.Linear(2 * width, words)

        def forward(self, x):
            y = self.blocks(self.stem(x))
            return self.fc(torch.cat([self.avg(y), self.max(y)], 1).flatten(1))

    export_nets(torch, out, 192, (("ds_cnn_kws_b32_40x98", DsCnn, (32, 1, 40, 98)),), opset=17)
    return 0


def export_ninety_third_set(torch, torchvision, out):
    # Session 72, after its executor change: networks at a batch over small planes, and a dilated residual
    # network written here (dense prediction without downsampling past 1/4).
    tv = torchvision.models
    for name, make, shape in (("resnext50_32x4d_b8_96", lambda: tv.resnext50_32x4d(weights=None), (8, 3, 96, 96)),
                              ("regnet_x_800mf_b16_96", lambda: tv.regnet_x_800mf(weights=None), (16, 3, 96, 96)),
                              ("mobilenet_v2_b32_96", lambda: tv.mobilenet_v2(weights=None), (32, 3, 96, 96)),
                              ("densenet121_b8_64", lambda: tv.densenet121(weights=None), (8, 3, 64, 64)),
                              ("efficientnet_b0_b8_160", lambda: tv.efficientnet_b0(weights=None), (8, 3, 160, 160))):
        export_one(torch, out, 193, name, make, shape)
    nn = torch.nn

    class Dilated(nn.Module):  # a residual pair of 3x3 Convs at one dilation
        def __init__(self, c, d):
            super().__init__()
            self.body = nn.Sequential(nn.Conv2d(c, c, 3, padding=d, dilation=d, bias=False), nn.BatchNorm2d(c),
                                      nn.ReLU(), nn.Conv2d(c, c, 3, padding=d, dilation=d, bias=False),
                                      nn.BatchNorm2d(c))

        def forward(self, x):
            return torch.relu(x + self.body(x))

    class DilatedNet(nn.Module):  # a stride-4 stem, blocks at dilations 1, 2, 4, 8, a 1x1 head
        def __init__(self, width=64, classes=21):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, width, 7, stride=2, padding=3, bias=False), nn.BatchNorm2d(width),
                                      nn.ReLU(), nn.MaxPool2d(3, stride=2, padding=1))
            self.blocks = nn.Sequential(*(Dilated(width, d) for d in (1, 2, 4, 8)))
            self.head = nn.Conv2d(width, classes, 1)

        def forward(self, x):
            return self.head(self.blocks(self.stem(x)))

    export_nets(torch, out, 193, (("dilated_resnet_b4_80", DilatedNet, (4, 3, 80, 80)),), opset=17)
    return 0


def export_ninety_fourth_set(torch, torchvision, out):
    # Session 72, after its last cost-model change: networks at a batch over 96x96, and a video network
    # written here ((2+1)-D Convs: a spatial 1x3x3 and a temporal 3x1x1 in turn).
    tv = torchvision.models
    for name, make, shape in (("mnasnet1_0_b16_96", lambda: tv.mnasnet1_0(weights=None), (16, 3, 96, 96)),
                              ("efficientnet_b2_b8_96", lambda: tv.efficientnet_b2(weights=None), (8, 3, 96, 96)),
                              ("shufflenet_v2_x0_5_b32_96", lambda: tv.shufflenet_v2_x0_5(weights=None),
                               (32, 3, 96, 96)),
                              ("regnet_y_800mf_b16_96", lambda: tv.regnet_y_800mf(weights=None), (16, 3, 96, 96)),
                              ("mobilenet_v3_large_b32_96", lambda: tv.mobilenet_v3_large(weights=None),
                               (32, 3, 96, 96))):
        export_one(torch, out, 194, name, make, shape)
    nn = torch.nn

    class R21(nn.Module):  # a residual (2+1)-D block: 1x3x3 then 3x1x1, each with BatchNorm, ReLU between
        def __init__(self, c):
            super().__init__()
            self.body = nn.Sequential(nn.Conv3d(c, c, (1, 3, 3), padding=(0, 1, 1), bias=False), nn.BatchNorm3d(c),
                                      nn.ReLU(), nn.Conv3d(c, c, (3, 1, 1), padding=(1, 0, 0), bias=False),
                                      nn.BatchNorm3d(c))

        def forward(self, x):
            return torch.relu(x + self.body(x))

    class Video(nn.Module):  # a strided 3-D stem, two blocks at each of two widths, time and space averaged
        def __init__(self, classes=10):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv3d(3, 32, (3, 7, 7), stride=(1, 2, 2), padding=(1, 3, 3), bias=False),
                                      nn.BatchNorm3d(32), nn.ReLU())
            self.stage1 = nn.Sequential(R21(32), R21(32))
            self.down = nn.Sequential(nn.Conv3d(32, 64, 1, stride=(2, 2, 2), bias=False), nn.BatchNorm3d(64))
            self.stage2 = nn.Sequential(R21(64), R21(64))
            self.fc = nn.Linear(64, classes)

        def forward(self, x):
            y = self.stage2(self.down(self.stage1(self.stem(x))))
            return self.fc(y.mean(dim=(2, 3, 4)))

    export_nets(torch, out, 194, (("r2plus1d_lite_b2_8x56", Video, (2, 3, 8, 56, 56)),), opset=17)
    return 0


def export_ninety_fifth_set(torch, torchvision, out):
    # Session 73, before its first change: networks at batches and sizes not exported before, and a ResNet-D
    # written here (average-pooled shortcuts, grouped 3x3 Convs).
    tv = torchvision.models
    for name, make, shape in (("resnet34_b16_96", lambda: tv.resnet34(weights=None), (16, 3, 96, 96)),
                              ("regnet_x_400mf_b16_128", lambda: tv.regnet_x_400mf(weights=None), (16, 3, 128, 128)),
                              ("efficientnet_b3_b4_128", lambda: tv.efficientnet_b3(weights=None), (4, 3, 128, 128)),
                              ("mobilenet_v3_small_b32_96", lambda: tv.mobilenet_v3_small(weights=None),
                               (32, 3, 96, 96)),
                              ("googlenet_b16_96", lambda: tv.googlenet(weights=None, aux_logits=False,
                                                                        init_weights=True), (16, 3, 96, 96))):
        export_one(torch, out, 195, name, make, shape)
    nn = torch.nn

    def cbr(cin, cout, k=3, stride=1, groups=1):
        return [nn.Conv2d(cin, cout, k, stride=stride, padding=k // 2, groups=groups, bias=False),
                nn.BatchNorm2d(cout), nn.ReLU()]

    class Bottleneck(nn.Module):  # 1x1 down, grouped 3x3 (strided here), 1x1 up; the shortcut pools, then a 1x1
        def __init__(self, cin, mid, cout, stride, groups):
            super().__init__()
            self.body = nn.Sequential(*cbr(cin, mid, 1), *cbr(mid, mid, 3, stride, groups),
                                      nn.Conv2d(mid, cout, 1, bias=False), nn.BatchNorm2d(cout))
            pool = [nn.AvgPool2d(2, 2, ceil_mode=True)] if stride == 2 else []
            self.short = (nn.Sequential(*pool, nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout))
                          if stride != 1 or cin != cout else nn.Identity())

        def forward(self, x):
            return torch.relu(self.body(x) + self.short(x))

    class ResNetD(nn.Module):  # three 3x3 Convs for a stem, a max pool, three stages, an average and a classifier
        def __init__(self, classes=100):
            super().__init__()
            self.stem = nn.Sequential(*cbr(3, 24, 3, 2), *cbr(24, 24), *cbr(24, 48), nn.MaxPool2d(3, 2, 1))
            blocks, cin = [], 48
            for cout, stride in ((128, 1), (128, 1), (256, 2), (256, 1), (512, 2), (512, 1)):
                blocks.append(Bottleneck(cin, cout // 2, cout, stride, 8))
                cin = cout
            self.blocks = nn.Sequential(*blocks)
            self.fc = nn.Linear(cin, classes)

        def forward(self, x):
            return self.fc(self.blocks(self.stem(x)).mean(dim=(2, 3)))

    export_nets(torch, out, 195, (("resnet_d_lite_b8_96", ResNetD, (8, 3, 96, 96)),), opset=17)
    return 0


def export_ninety_sixth_set(torch, torchvision, out):
    # Session 73, after the squeeze-excitation change: networks with and without such blocks, at batches and
    # sizes not exported before, and a 1-D keyword spotter with squeeze-excitation written here.
    tv = torchvision.models
    for name, make, shape in (("regnet_y_400mf_b32_96", lambda: tv.regnet_y_400mf(weights=None), (32, 3, 96, 96)),
                              ("efficientnet_b0_b16_128", lambda: tv.efficientnet_b0(weights=None),
                               (16, 3, 128, 128)),
                              ("mobilenet_v3_large_b4_192", lambda: tv.mobilenet_v3_large(weights=None),
                               (4, 3, 192, 192)),
                              ("mnasnet1_3_b16_96", lambda: tv.mnasnet1_3(weights=None), (16, 3, 96, 96)),
                              ("resnet18_b32_64", lambda: tv.resnet18(weights=None), (32, 3, 64, 64))):
        export_one(torch, out, 196, name, make, shape)
    nn = torch.nn

    class Block(nn.Module):  # two 9-tap 1-D Convs (the first strided here), squeeze-excitation, a 1x1 shortcut
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.body = nn.Sequential(nn.Conv1d(cin, cout, 9, stride=stride, padding=4, bias=False),
                                      nn.BatchNorm1d(cout), nn.ReLU(), nn.Conv1d(cout, cout, 9, padding=4, bias=False),
                                      nn.BatchNorm1d(cout))
            self.se = nn.Sequential(nn.AdaptiveAvgPool1d(1), nn.Conv1d(cout, cout // 4, 1), nn.ReLU(),
                                    nn.Conv1d(cout // 4, cout, 1), nn.Sigmoid())
            self.short = (nn.Sequential(nn.Conv1d(cin, cout, 1, stride=stride, bias=False), nn.BatchNorm1d(cout))
                          if stride != 1 or cin != cout else nn.Identity())

        def forward(self, x):
            y = self.body(x)
            return torch.relu(y * self.se(y) + self.short(x))

    class TCResNet(nn.Module):  # the coefficients as channels, time as the axis; a 3-tap stem, six blocks
        def __init__(self, classes=12):
            super().__init__()
            self.stem = nn.Conv1d(40, 48, 3, padding=1, bias=False)
            blocks, cin = [], 48
            for cout, stride in ((64, 2), (64, 1), (96, 2), (96, 1), (128, 2), (128, 1)):
                blocks.append(Block(cin, cout, stride))
                cin = cout
            self.blocks = nn.Sequential(*blocks)
            self.fc = nn.Linear(cin, classes)

        def forward(self, x):
            return self.fc(self.blocks(self.stem(x)).mean(dim=2))

    export_nets(torch, out, 196, (("tc_resnet_se_b32_40x101", TCResNet, (32, 40, 101)),), opset=17)
    return 0


def export_ninety_seventh_set(torch, torchvision, out):
    # Session 73, after its second change: networks with squeeze-excitation and without, at batches and sizes
    # not exported before, and a 1-D speech encoder written here.
    tv = torchvision.models
    for name, make, shape in (("efficientnet_b1_b16_96", lambda: tv.efficientnet_b1(weights=None), (16, 3, 96, 96)),
                              ("mobilenet_v3_small_b16_160", lambda: tv.mobilenet_v3_small(weights=None),
                               (16, 3, 160, 160)),
                              ("mnasnet0_75_b32_96", lambda: tv.mnasnet0_75(weights=None), (32, 3, 96, 96)),
                              ("regnet_y_800mf_b32_64", lambda: tv.regnet_y_800mf(weights=None), (32, 3, 64, 64)),
                              ("squeezenet1_1_b32_96", lambda: tv.squeezenet1_1(weights=None), (32, 3, 96, 96))):
        export_one(torch, out, 197, name, make, shape)
    nn = torch.nn

    class Block(nn.Module):  # expand 1x1, depthwise 1-D (strided here), squeeze-excitation, project 1x1
        def __init__(self, cin, cout, expand, k, stride):
            super().__init__()
            mid = cin * expand
            self.body = nn.Sequential(nn.Conv1d(cin, mid, 1, bias=False), nn.BatchNorm1d(mid), nn.Hardswish(),
                                      nn.Conv1d(mid, mid, k, stride=stride, padding=k // 2, groups=mid, bias=False),
                                      nn.BatchNorm1d(mid), nn.Hardswish())
            self.se = nn.Sequential(nn.AdaptiveAvgPool1d(1), nn.Conv1d(mid, mid // 4, 1), nn.ReLU(),
                                    nn.Conv1d(mid // 4, mid, 1), nn.Hardsigmoid())
            self.project = nn.Sequential(nn.Conv1d(mid, cout, 1, bias=False), nn.BatchNorm1d(cout))
            self.residual = stride == 1 and cin == cout

        def forward(self, x):
            y = self.body(x)
            y = self.project(y * self.se(y))
            return x + y if self.residual else y

    class Encoder(nn.Module):  # filterbank channels in, a 5-tap stem, six blocks, a mean over time, a classifier
        def __init__(self, classes=35):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv1d(64, 64, 5, padding=2, bias=False), nn.BatchNorm1d(64), nn.Hardswish())
            self.blocks = nn.Sequential(Block(64, 64, 2, 7, 1), Block(64, 96, 3, 7, 2), Block(96, 96, 3, 7, 1),
                                        Block(96, 128, 3, 11, 2), Block(128, 128, 3, 11, 1), Block(128, 160, 4, 15, 2))
            self.fc = nn.Linear(160, classes)

        def forward(self, x):
            return self.fc(self.blocks(self.stem(x)).mean(dim=2))

    export_nets(torch, out, 197, (("dscnn1d_se_b16_64x200", Encoder, (16, 64, 200)),), opset=17)
    return 0


def export_ninety_eighth_set(torch, torchvision, out):
    # Session 74, before any change: networks at batches and sizes not exported before, and a small U-Net
    # written here (its Concats and transposed Convs over a batch).
    tv = torchvision.models
    for name, make, shape in (("shufflenet_v2_x1_5_b32_96", lambda: tv.shufflenet_v2_x1_5(weights=None),
                               (32, 3, 96, 96)),
                              ("densenet121_b16_64", lambda: tv.densenet121(weights=None), (16, 3, 64, 64)),
                              ("mobilenet_v2_b8_192", lambda: tv.mobilenet_v2(weights=None), (8, 3, 192, 192)),
                              ("regnet_x_800mf_b32_64", lambda: tv.regnet_x_800mf(weights=None), (32, 3, 64, 64)),
                              ("efficientnet_b2_b16_96", lambda: tv.efficientnet_b2(weights=None), (16, 3, 96, 96))):
        export_one(torch, out, 198, name, make, shape)
    nn = torch.nn

    def double(cin, cout):  # two 3x3 Conv + BatchNorm + ReLU
        return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(),
                             nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU())

    class UNet(nn.Module):  # three levels down by strided Convs, up by transposed Convs, skips concatenated
        def __init__(self, c=32, classes=4):
            super().__init__()
            self.inc = double(3, c)
            self.down = nn.ModuleList([nn.Conv2d(c * 2 ** i, c * 2 ** (i + 1), 3, stride=2, padding=1) for i in range(3)])
            self.enc = nn.ModuleList([double(c * 2 ** (i + 1), c * 2 ** (i + 1)) for i in range(3)])
            self.up = nn.ModuleList([nn.ConvTranspose2d(c * 2 ** (i + 1), c * 2 ** i, 2, stride=2) for i in range(3)])
            self.dec = nn.ModuleList([double(c * 2 ** (i + 1), c * 2 ** i) for i in range(3)])
            self.head = nn.Conv2d(c, classes, 1)

        def forward(self, x):
            skips = [self.inc(x)]
            for down, enc in zip(self.down, self.enc):
                skips.append(enc(down(skips[-1])))
            y = skips.pop()
            for i in reversed(range(3)):
                y = self.dec[i](torch.cat([self.up[i](y), skips.pop()], dim=1))
            return self.head(y)

    export_nets(torch, out, 198, (("unet_skip_b4_96", UNet, (4, 3, 96, 96)),), opset=17)
    return 0


def export_ninety_ninth_set(torch, torchvision, out):
    # Session 74, after its change: networks whose last stages run at a few positions an image over a batch,
    # and a bottleneck ResNet for 28^2 inputs written here (its stages at 28^2, 14^2, 7^2 and 4^2).
    tv = torchvision.models
    for name, make, shape in (("resnet50_b32_64", lambda: tv.resnet50(weights=None), (32, 3, 64, 64)),
                              ("mobilenet_v3_large_b16_96", lambda: tv.mobilenet_v3_large(weights=None),
                               (16, 3, 96, 96)),
                              ("mnasnet1_0_b32_64", lambda: tv.mnasnet1_0(weights=None), (32, 3, 64, 64)),
                              ("resnext50_32x4d_b8_64", lambda: tv.resnext50_32x4d(weights=None), (8, 3, 64, 64)),
                              ("regnet_x_1_6gf_b16_80", lambda: tv.regnet_x_1_6gf(weights=None), (16, 3, 80, 80))):
        export_one(torch, out, 199, name, make, shape)
    nn = torch.nn

    class Bottleneck(nn.Module):  # 1x1 reduce, 3x3 (strided to downsample), 1x1 expand, a projected shortcut
        def __init__(self, cin, mid, cout, stride):
            super().__init__()
            self.body = nn.Sequential(nn.Conv2d(cin, mid, 1, bias=False), nn.BatchNorm2d(mid), nn.ReLU(),
                                      nn.Conv2d(mid, mid, 3, stride=stride, padding=1, bias=False),
                                      nn.BatchNorm2d(mid), nn.ReLU(), nn.Conv2d(mid, cout, 1, bias=False),
                                      nn.BatchNorm2d(cout))
            self.short = (nn.Identity() if stride == 1 and cin == cout else
                          nn.Sequential(nn.Conv2d(cin, cout, 1, stride=stride, bias=False), nn.BatchNorm2d(cout)))

        def forward(self, x):
            return torch.relu(self.body(x) + self.short(x))

    class Net(nn.Module):
        def __init__(self, classes=10):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(1, 32, 3, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU())
            self.blocks = nn.Sequential(Bottleneck(32, 32, 128, 1), Bottleneck(128, 64, 256, 2),
                                        Bottleneck(256, 64, 256, 1), Bottleneck(256, 128, 512, 2),
                                        Bottleneck(512, 128, 512, 1), Bottleneck(512, 256, 1024, 2),
                                        Bottleneck(1024, 256, 1024, 1))
            self.fc = nn.Linear(1024, classes)

        def forward(self, x):
            return self.fc(self.blocks(self.stem(x)).mean(dim=(2, 3)))

    export_nets(torch, out, 199, (("mnist_bottleneck_b64_28", Net, (64, 1, 28, 28)),), opset=17)
    return 0


def export_hundredth_set(torch, torchvision, out):
    # Session 74, after set 99's runs: networks at batches and sizes not exported before, and an
    # inverted-residual network with 5x5 depthwise Convs over small planes written here.
    tv = torchvision.models
    for name, make, shape in (("efficientnet_b0_b32_64", lambda: tv.efficientnet_b0(weights=None), (32, 3, 64, 64)),
                              ("mnasnet0_5_b64_64", lambda: tv.mnasnet0_5(weights=None), (64, 3, 64, 64)),
                              ("regnet_x_3_2gf_b8_96", lambda: tv.regnet_x_3_2gf(weights=None), (8, 3, 96, 96)),
                              ("resnet101_b8_64", lambda: tv.resnet101(weights=None), (8, 3, 64, 64)),
                              ("shufflenet_v2_x1_0_b64_64", lambda: tv.shufflenet_v2_x1_0(weights=None),
                               (64, 3, 64, 64))):
        export_one(torch, out, 200, name, make, shape)
    nn = torch.nn

    class InvRes(nn.Module):  # expand 1x1, depthwise 5x5 (strided to downsample), project 1x1, residual if it fits
        def __init__(self, cin, cout, expand, stride):
            super().__init__()
            mid = cin * expand
            self.body = nn.Sequential(nn.Conv2d(cin, mid, 1, bias=False), nn.BatchNorm2d(mid), nn.ReLU6(),
                                      nn.Conv2d(mid, mid, 5, stride=stride, padding=2, groups=mid, bias=False),
                                      nn.BatchNorm2d(mid), nn.ReLU6(), nn.Conv2d(mid, cout, 1, bias=False),
                                      nn.BatchNorm2d(cout))
            self.residual = stride == 1 and cin == cout

        def forward(self, x):
            y = self.body(x)
            return x + y if self.residual else y

    class Net(nn.Module):  # 48^2 -> 24 -> 12 -> 6 -> 3
        def __init__(self, classes=100):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 24, 3, stride=2, padding=1, bias=False), nn.BatchNorm2d(24),
                                      nn.ReLU6())
            self.blocks = nn.Sequential(InvRes(24, 32, 4, 2), InvRes(32, 32, 4, 1), InvRes(32, 64, 6, 2),
                                        InvRes(64, 64, 6, 1), InvRes(64, 160, 6, 2), InvRes(160, 160, 6, 1))
            self.head = nn.Sequential(nn.Conv2d(160, 960, 1, bias=False), nn.BatchNorm2d(960), nn.ReLU6())
            self.fc = nn.Linear(960, classes)

        def forward(self, x):
            return self.fc(self.head(self.blocks(self.stem(x))).mean(dim=(2, 3)))

    export_nets(torch, out, 200, (("invres5x5_b16_48", Net, (16, 3, 48, 48)),), opset=17)
    return 0


def export_hundred_first_set(torch, torchvision, out):
    # Session 75, before any change: networks at batches and sizes not exported before, and a ResNeXt-style
    # network with 8-group 3x3 Convs over small planes written here.
    tv = torchvision.models
    for name, make, shape in (("regnet_y_400mf_b32_64", lambda: tv.regnet_y_400mf(weights=None), (32, 3, 64, 64)),
                              ("mobilenet_v3_small_b64_96", lambda: tv.mobilenet_v3_small(weights=None),
                               (64, 3, 96, 96)),
                              ("resnet18_b64_64", lambda: tv.resnet18(weights=None), (64, 3, 64, 64)),
                              ("wide_resnet50_2_b4_96", lambda: tv.wide_resnet50_2(weights=None), (4, 3, 96, 96)),
                              ("efficientnet_b1_b16_80", lambda: tv.efficientnet_b1(weights=None), (16, 3, 80, 80))):
        export_one(torch, out, 201, name, make, shape)
    nn = torch.nn

    class Block(nn.Module):  # 1x1 reduce, 8-group 3x3 (strided to downsample), 1x1 expand, projected shortcut
        def __init__(self, cin, mid, cout, stride):
            super().__init__()
            self.body = nn.Sequential(nn.Conv2d(cin, mid, 1, bias=False), nn.BatchNorm2d(mid), nn.ReLU(),
                                      nn.Conv2d(mid, mid, 3, stride=stride, padding=1, groups=8, bias=False),
                                      nn.BatchNorm2d(mid), nn.ReLU(), nn.Conv2d(mid, cout, 1, bias=False),
                                      nn.BatchNorm2d(cout))
            self.short = (nn.Identity() if stride == 1 and cin == cout else
                          nn.Sequential(nn.Conv2d(cin, cout, 1, stride=stride, bias=False), nn.BatchNorm2d(cout)))

        def forward(self, x):
            return torch.relu(self.body(x) + self.short(x))

    class Net(nn.Module):  # 32^2 -> 16 -> 8 -> 4
        def __init__(self, classes=100):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 64, 3, padding=1, bias=False), nn.BatchNorm2d(64), nn.ReLU())
            self.blocks = nn.Sequential(Block(64, 64, 128, 1), Block(128, 128, 256, 2), Block(256, 128, 256, 1),
                                        Block(256, 256, 512, 2), Block(512, 256, 512, 1),
                                        Block(512, 512, 1024, 2), Block(1024, 512, 1024, 1))
            self.fc = nn.Linear(1024, classes)

        def forward(self, x):
            return self.fc(self.blocks(self.stem(x)).mean(dim=(2, 3)))

    export_nets(torch, out, 201, (("cifar_resnext_g8_b32_32", Net, (32, 3, 32, 32)),), opset=17)
    return 0



def export_hundred_second_set(torch, torchvision, out):
    # Session 75, after its two changes: networks at batches and sizes not exported before, and a network of
    # 4-channel-a-group 3x3 Convs written here.
    tv = torchvision.models
    for name, make, shape in (("resnext101_32x8d_b2_64", lambda: tv.resnext101_32x8d(weights=None), (2, 3, 64, 64)),
                              ("regnet_x_400mf_b64_64", lambda: tv.regnet_x_400mf(weights=None), (64, 3, 64, 64)),
                              ("regnet_y_1_6gf_b8_96", lambda: tv.regnet_y_1_6gf(weights=None), (8, 3, 96, 96)),
                              ("shufflenet_v2_x2_0_b16_96", lambda: tv.shufflenet_v2_x2_0(weights=None),
                               (16, 3, 96, 96)),
                              ("densenet169_b8_64", lambda: tv.densenet169(weights=None), (8, 3, 64, 64))):
        export_one(torch, out, 202, name, make, shape)
    nn = torch.nn

    class Block(nn.Module):  # 4-channel-a-group 3x3 (strided to downsample), 1x1 mix, residual where it fits
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.body = nn.Sequential(nn.Conv2d(cin, cin, 3, stride=stride, padding=1, groups=cin // 4, bias=False),
                                      nn.BatchNorm2d(cin), nn.ReLU(), nn.Conv2d(cin, cout, 1, bias=False),
                                      nn.BatchNorm2d(cout), nn.ReLU())
            self.residual = stride == 1 and cin == cout

        def forward(self, x):
            y = self.body(x)
            return x + y if self.residual else y

    class Net(nn.Module):  # 32^2 -> 16 -> 8 -> 4
        def __init__(self, classes=10):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1, bias=False), nn.BatchNorm2d(32), nn.ReLU())
            self.blocks = nn.Sequential(Block(32, 64, 1), Block(64, 64, 1), Block(64, 128, 2), Block(128, 128, 1),
                                        Block(128, 256, 2), Block(256, 256, 1), Block(256, 512, 2),
                                        Block(512, 512, 1))
            self.fc = nn.Linear(512, classes)

        def forward(self, x):
            return self.fc(self.blocks(self.stem(x)).mean(dim=(2, 3)))

    export_nets(torch, out, 202, (("grouped_g4_b32_32", Net, (32, 3, 32, 32)),), opset=17)
    return 0


def export_hundred_third_set(torch, torchvision, out):
    # Session 75, after its third change: networks at batches and sizes not exported before, and a stack of
    # wide pointwise Convs over small planes written here.
    tv = torchvision.models
    for name, make, shape in (("efficientnet_b3_b8_64", lambda: tv.efficientnet_b3(weights=None), (8, 3, 64, 64)),
                              ("mobilenet_v2_b32_64", lambda: tv.mobilenet_v2(weights=None), (32, 3, 64, 64)),
                              ("squeezenet1_0_b32_64", lambda: tv.squeezenet1_0(weights=None), (32, 3, 64, 64)),
                              ("regnet_y_800mf_b8_64", lambda: tv.regnet_y_800mf(weights=None), (8, 3, 64, 64)),
                              ("resnet34_b16_64", lambda: tv.resnet34(weights=None), (16, 3, 64, 64))):
        export_one(torch, out, 203, name, make, shape)
    nn = torch.nn

    class Block(nn.Module):  # two 1x1 Convs, the first widening, a residual
        def __init__(self, c, wide):
            super().__init__()
            self.body = nn.Sequential(nn.Conv2d(c, wide, 1), nn.ReLU(), nn.Conv2d(wide, c, 1))

        def forward(self, x):
            return torch.relu(x + self.body(x))

    class Net(nn.Module):  # 3 -> 1536 at 8x8, two blocks, pooled to 4x4, two blocks
        def __init__(self, classes=100):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 1536, 3, padding=1), nn.ReLU())
            self.a = nn.Sequential(Block(1536, 1536), Block(1536, 2048))
            self.pool = nn.MaxPool2d(2)
            self.b = nn.Sequential(Block(1536, 3072), Block(1536, 1536))
            self.fc = nn.Linear(1536, classes)

        def forward(self, x):
            return self.fc(self.b(self.pool(self.a(self.stem(x)))).mean(dim=(2, 3)))

    export_nets(torch, out, 203, (("wide_pointwise_b4_8", Net, (4, 3, 8, 8)),), opset=17)
    return 0


def export_hundred_fourth_set(torch, torchvision, out):
    # Session 75, after its fourth change: networks at batches and sizes not exported before, and a stack of
    # pointwise Convs over 3x3 planes written here.
    tv = torchvision.models
    for name, make, shape in (("mobilenet_v3_large_b32_64", lambda: tv.mobilenet_v3_large(weights=None),
                               (32, 3, 64, 64)),
                              ("resnet50_b8_96", lambda: tv.resnet50(weights=None), (8, 3, 96, 96)),
                              ("shufflenet_v2_x0_5_b64_64", lambda: tv.shufflenet_v2_x0_5(weights=None),
                               (64, 3, 64, 64)),
                              ("mnasnet1_3_b16_64", lambda: tv.mnasnet1_3(weights=None), (16, 3, 64, 64)),
                              ("regnet_x_400mf_b16_96", lambda: tv.regnet_x_400mf(weights=None), (16, 3, 96, 96))):
        export_one(torch, out, 204, name, make, shape)
    nn = torch.nn

    class Net(nn.Module):  # 12^2 -> 3x3 by a strided stem, then 1x1 Convs widening and narrowing, residual
        def __init__(self, classes=10):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 96, 4, stride=4), nn.ReLU())
            self.up = nn.ModuleList([nn.Conv2d(96, 384, 1), nn.Conv2d(96, 288, 1), nn.Conv2d(96, 192, 1)])
            self.down = nn.ModuleList([nn.Conv2d(384, 96, 1), nn.Conv2d(288, 96, 1), nn.Conv2d(192, 96, 1)])
            self.fc = nn.Linear(96, classes)

        def forward(self, x):
            x = self.stem(x)
            for up, down in zip(self.up, self.down):
                x = torch.relu(x + down(torch.relu(up(x))))
            return self.fc(x.mean(dim=(2, 3)))

    export_nets(torch, out, 204, (("pw_stack_b32_3", Net, (32, 3, 12, 12)),), opset=17)
    return 0


def export_hundred_fifth_set(torch, torchvision, out):
    # Session 76, before any change: networks at batches and sizes not exported before, and a net of strided
    # grouped Convs over small planes written here.
    tv = torchvision.models
    for name, make, shape in (("regnet_y_800mf_b16_64", lambda: tv.regnet_y_800mf(weights=None), (16, 3, 64, 64)),
                              ("regnet_x_1_6gf_b8_96", lambda: tv.regnet_x_1_6gf(weights=None), (8, 3, 96, 96)),
                              ("googlenet_b16_64", lambda: tv.googlenet(weights=None, aux_logits=False,
                                                                       init_weights=True), (16, 3, 64, 64)),
                              ("mnasnet0_75_b32_64", lambda: tv.mnasnet0_75(weights=None), (32, 3, 64, 64)),
                              ("resnext50_32x4d_b16_64", lambda: tv.resnext50_32x4d(weights=None),
                               (16, 3, 64, 64))):
        export_one(torch, out, 205, name, make, shape)
    nn = torch.nn

    class Net(nn.Module):  # 32^2 stem, then stride-2 grouped 3x3 Convs halving the plane down to 2x2
        def __init__(self, classes=10):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU())
            layers = []
            for cin, cout, group in ((64, 128, 8), (128, 256, 16), (256, 384, 32), (384, 480, 32)):
                layers += [nn.Conv2d(cin, cout, 3, stride=2, padding=1, groups=cin // group), nn.BatchNorm2d(cout),
                           nn.ReLU(), nn.Conv2d(cout, cout, 1), nn.BatchNorm2d(cout), nn.ReLU()]
            self.body = nn.Sequential(*layers)
            self.fc = nn.Linear(480, classes)

        def forward(self, x):
            return self.fc(self.body(self.stem(x)).mean(dim=(2, 3)))

    export_nets(torch, out, 205, (("grouped_strided_b16_32", Net, (16, 3, 32, 32)),), opset=17)
    return 0


def export_hundred_sixth_set(torch, torchvision, out):
    # Session 76, after its executor change: transformers, a recurrent model and networks at batches and sizes
    # not exported before.
    tv = torchvision.models
    for name, make, shape in (("vit_b_32_b2_224", lambda: tv.vit_b_32(weights=None), (2, 3, 224, 224)),
                              ("swin_t_b1_224", lambda: tv.swin_t(weights=None), (1, 3, 224, 224)),
                              ("convnext_tiny_b2_128", lambda: tv.convnext_tiny(weights=None), (2, 3, 128, 128)),
                              ("efficientnet_b0_b24_64", lambda: tv.efficientnet_b0(weights=None), (24, 3, 64, 64))):
        export_one(torch, out, 206, name, make, shape)
    nn = torch.nn

    class PreNorm(nn.Module):  # pre-norm encoder layers (norm_first), GELU, over 96 tokens of 384
        def __init__(self):
            super().__init__()
            layer = nn.TransformerEncoderLayer(384, 6, 1536, activation="gelu", batch_first=True, norm_first=True)
            self.t = nn.TransformerEncoder(layer, 6, enable_nested_tensor=False)
            self.n = nn.LayerNorm(384)

        def forward(self, x):
            return self.n(self.t(x))

    class LanguageModel(nn.Module):  # int64 tokens -> embedding -> 2-layer LSTM -> vocabulary logits
        def __init__(self):
            super().__init__()
            self.e = nn.Embedding(2000, 320)
            self.l = nn.LSTM(320, 320, num_layers=2, batch_first=True)
            self.o = nn.Linear(320, 2000)

        def forward(self, t):
            h, _ = self.l(self.e(t))
            return self.o(h)

    torch.manual_seed(206)
    tokens = torch.randint(0, 2000, (16, 64))
    export_nets(torch, out, 206, (("prenorm_encoder_b4_96", PreNorm, (4, 96, 384)),
                                  ("lstm_lm_b16_64", LanguageModel, tokens)), opset=17)
    return 0


def export_hundred_seventh_set(torch, torchvision, out):
    # Session 76, after its cost-model changes: transformers, recurrent models and networks at batches and sizes
    # not exported before.
    tv = torchvision.models
    for name, make, shape in (("vit_b_16_b1_224", lambda: tv.vit_b_16(weights=None), (1, 3, 224, 224)),
                              ("convnext_small_b1_128", lambda: tv.convnext_small(weights=None), (1, 3, 128, 128)),
                              ("efficientnet_v2_s_b4_96", lambda: tv.efficientnet_v2_s(weights=None), (4, 3, 96, 96))):
        export_one(torch, out, 207, name, make, shape)
    nn = torch.nn

    class Bert(nn.Module):  # post-norm encoder layers, GELU, over 128 tokens of 512
        def __init__(self):
            super().__init__()
            layer = nn.TransformerEncoderLayer(512, 8, 2048, activation="gelu", batch_first=True)
            self.t = nn.TransformerEncoder(layer, 6, enable_nested_tensor=False)

        def forward(self, x):
            return self.t(x)

    class Speech(nn.Module):  # 80 features a frame -> 2 bidirectional GRU layers -> 40 classes a frame
        def __init__(self):
            super().__init__()
            self.g = nn.GRU(80, 256, num_layers=2, bidirectional=True, batch_first=True)
            self.o = nn.Linear(512, 40)

        def forward(self, x):
            h, _ = self.g(x)
            return self.o(h)

    class Tagger(nn.Module):  # int64 tokens -> embedding -> bidirectional LSTM -> 17 tags a token
        def __init__(self):
            super().__init__()
            self.e = nn.Embedding(3000, 128)
            self.l = nn.LSTM(128, 256, bidirectional=True, batch_first=True)
            self.o = nn.Linear(512, 17)

        def forward(self, t):
            h, _ = self.l(self.e(t))
            return self.o(h)

    torch.manual_seed(207)
    tokens = torch.randint(0, 3000, (32, 40))
    export_nets(torch, out, 207, (("bert_encoder_b4_128", Bert, (4, 128, 512)), ("gru_speech_b8_100", Speech, (8, 100, 80)),
                                  ("bilstm_tagger_b32_40", Tagger, tokens)), opset=17)
    return 0


def export_hundred_eighth_set(torch, torchvision, out):
    # Session 76, after set 107's run: video and segmentation networks, and a causal decoder with a
    # vocabulary head.
    tv = torchvision.models
    seg = tv.segmentation
    for name, make, shape in (("r2plus1d_18_b2_8x80", lambda: tv.video.r2plus1d_18(weights=None), (2, 3, 8, 80, 80)),
                              ("mc3_18_b1_8x96", lambda: tv.video.mc3_18(weights=None), (1, 3, 8, 96, 96)),
                              ("deeplabv3_mnv3_b2_192",
                               lambda: seg.deeplabv3_mobilenet_v3_large(weights=None, weights_backbone=None,
                                                                        aux_loss=False), (2, 3, 192, 192)),
                              ("fcn_resnet50_b1_192",
                               lambda: seg.fcn_resnet50(weights=None, weights_backbone=None, aux_loss=False),
                               (1, 3, 192, 192)),
                              ("lraspp_mnv3_b4_128",
                               lambda: seg.lraspp_mobilenet_v3_large(weights=None, weights_backbone=None),
                               (4, 3, 128, 128))):
        export_one(torch, out, 208, name, make, shape)
    nn = torch.nn

    class Gpt(nn.Module):  # token and position embeddings, causal pre-norm layers, the vocabulary head
        def __init__(self):
            super().__init__()
            self.e = nn.Embedding(5000, 384)
            self.p = nn.Parameter(torch.randn(1, 128, 384) * 0.02)
            layer = nn.TransformerEncoderLayer(384, 6, 1536, activation="gelu", batch_first=True, norm_first=True)
            self.t = nn.TransformerEncoder(layer, 6, enable_nested_tensor=False)
            self.n = nn.LayerNorm(384)
            self.h = nn.Linear(384, 5000, bias=False)
            self.register_buffer("mask", torch.triu(torch.full((128, 128), float("-inf")), diagonal=1))

        def forward(self, t):
            return self.h(self.n(self.t(self.e(t) + self.p, mask=self.mask)))

    torch.manual_seed(208)
    tokens = torch.randint(0, 5000, (2, 128))
    export_nets(torch, out, 208, (("gpt_decoder_b2_128", Gpt, tokens),), opset=17)
    return 0


def export_hundred_ninth_set(torch, torchvision, out):
    # Session 77, before any change: plain and inception-style CNNs, a wide residual net, channel shuffles at a
    # batch, an encoder-decoder with transposed Convs, and a Conformer-style audio encoder.
    tv = torchvision.models
    for name, make, shape in (("vgg13_bn_b1_224", lambda: tv.vgg13_bn(weights=None), (1, 3, 224, 224)),
                              ("inception_v3_b2_160",
                               lambda: tv.inception_v3(weights=None, aux_logits=False, init_weights=True),
                               (2, 3, 160, 160)),
                              ("wide_resnet50_2_b8_64", lambda: tv.wide_resnet50_2(weights=None), (8, 3, 64, 64)),
                              ("shufflenet_v2_x1_5_b32_64", lambda: tv.shufflenet_v2_x1_5(weights=None),
                               (32, 3, 64, 64))):
        export_one(torch, out, 209, name, make, shape)
    nn = torch.nn

    def block(i, o):
        return nn.Sequential(nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True),
                             nn.Conv2d(o, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))

    class UNet(nn.Module):  # 4 levels down by max pooling, up by 2x2 transposed Convs, skips concatenated
        def __init__(self):
            super().__init__()
            w = (24, 48, 96, 192, 384)
            self.down = nn.ModuleList([block(3, w[0])] + [block(w[i], w[i + 1]) for i in range(4)])
            self.up = nn.ModuleList([nn.ConvTranspose2d(w[i + 1], w[i], 2, stride=2) for i in range(4)])
            self.dec = nn.ModuleList([block(2 * w[i], w[i]) for i in range(4)])
            self.head = nn.Conv2d(w[0], 5, 1)

        def forward(self, x):
            skips = []
            for i, d in enumerate(self.down):
                x = d(x if i == 0 else nn.functional.max_pool2d(x, 2))
                skips.append(x)
            x = skips.pop()
            for i in reversed(range(4)):
                x = self.dec[i](torch.cat([self.up[i](x), skips[i]], 1))
            return self.head(x)

    class ConformerBlock(nn.Module):
        def __init__(self, d=176, heads=4, k=15):
            super().__init__()
            self.ff1 = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.SiLU(), nn.Linear(4 * d, d))
            self.ff2 = nn.Sequential(nn.LayerNorm(d), nn.Linear(d, 4 * d), nn.SiLU(), nn.Linear(4 * d, d))
            self.na = nn.LayerNorm(d)
            self.att = nn.MultiheadAttention(d, heads, batch_first=True)
            self.nc = nn.LayerNorm(d)
            self.pw1 = nn.Conv1d(d, 2 * d, 1)
            self.dw = nn.Conv1d(d, d, k, padding=k // 2, groups=d)
            self.bn = nn.BatchNorm1d(d)
            self.pw2 = nn.Conv1d(d, d, 1)
            self.nf = nn.LayerNorm(d)

        def forward(self, x):
            x = x + 0.5 * self.ff1(x)
            a = self.na(x)
            x = x + self.att(a, a, a, need_weights=False)[0]
            c = self.nc(x).transpose(1, 2)
            c = self.pw2(nn.functional.silu(self.bn(self.dw(nn.functional.glu(self.pw1(c), dim=1)))))
            x = x + c.transpose(1, 2)
            return self.nf(x + 0.5 * self.ff2(x))

    class Conformer(nn.Module):  # 80 filterbank features in, 4 blocks of 176, 30 classes out per frame
        def __init__(self):
            super().__init__()
            self.inp = nn.Linear(80, 176)
            self.blocks = nn.Sequential(*[ConformerBlock() for _ in range(4)])
            self.out = nn.Linear(176, 30)

        def forward(self, x):
            return self.out(self.blocks(self.inp(x)))

    export_nets(torch, out, 209, (("unet_deconv_b4_128", UNet, (4, 3, 128, 128)),
                                  ("conformer_b4_200", Conformer, (4, 200, 80))), opset=17)
    return 0


def export_hundred_tenth_set(torch, torchvision, out):
    # Session 77, after the Pad change: pads of every kind (asymmetric zero, causal, reflect, replicate),
    # average pools without the pads counted, and GoogLeNet.
    export_one(torch, out, 210, "googlenet_b8_128",
               lambda: torchvision.models.googlenet(weights=None, aux_logits=False, init_weights=True),
               (8, 3, 128, 128))
    nn = torch.nn
    F = nn.functional

    class SameConv(nn.Module):  # TensorFlow's "same" padding at a stride: the extra pad after, explicit
        def __init__(self, i, o, k, s, groups=1):
            super().__init__()
            self.k, self.s = k, s
            self.c = nn.Conv2d(i, o, k, s, groups=groups, bias=False)
            self.b = nn.BatchNorm2d(o)

        def forward(self, x):
            total = max(self.k - self.s, 0) if x.shape[-1] % self.s == 0 else max(self.k - x.shape[-1] % self.s, 0)
            x = F.pad(x, (total // 2, total - total // 2, total // 2, total - total // 2))
            return F.relu6(self.b(self.c(x)))

    class InvRes(nn.Module):
        def __init__(self, i, o, s, e=6, k=3):
            super().__init__()
            h = i * e
            self.f = nn.Sequential(SameConv(i, h, 1, 1), SameConv(h, h, k, s, groups=h), nn.Conv2d(h, o, 1, bias=False),
                                   nn.BatchNorm2d(o))
            self.res = s == 1 and i == o

        def forward(self, x):
            y = self.f(x)
            return x + y if self.res else y

    class TfSame(nn.Module):
        def __init__(self):
            super().__init__()
            cfg = ((16, 24, 2, 3), (24, 24, 1, 3), (24, 40, 2, 5), (40, 40, 1, 5), (40, 80, 2, 3), (80, 80, 1, 3),
                   (80, 112, 1, 5), (112, 192, 2, 5), (192, 192, 1, 5), (192, 320, 1, 3))
            self.stem = SameConv(3, 16, 3, 2)
            self.blocks = nn.Sequential(*[InvRes(i, o, s, k=k) for i, o, s, k in cfg])
            self.head = nn.Sequential(nn.Conv2d(320, 1280, 1), nn.ReLU6(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                                      nn.Linear(1280, 1000))

        def forward(self, x):
            return self.head(self.blocks(self.stem(x)))

    class WaveNet(nn.Module):  # 2 stacks of dilations 1..256, 64 residual and 128 skip channels
        def __init__(self):
            super().__init__()
            self.inp = nn.Conv1d(1, 64, 1)
            self.dil = [2 ** i for i in range(9)] * 2
            self.f = nn.ModuleList([nn.Conv1d(64, 64, 2, dilation=d) for d in self.dil])
            self.g = nn.ModuleList([nn.Conv1d(64, 64, 2, dilation=d) for d in self.dil])
            self.r = nn.ModuleList([nn.Conv1d(64, 64, 1) for _ in self.dil])
            self.k = nn.ModuleList([nn.Conv1d(64, 128, 1) for _ in self.dil])
            self.out = nn.Sequential(nn.ReLU(), nn.Conv1d(128, 128, 1), nn.ReLU(), nn.Conv1d(128, 256, 1))

        def forward(self, x):
            x = self.inp(x)
            skip = 0
            for d, f, g, r, k in zip(self.dil, self.f, self.g, self.r, self.k):
                p = F.pad(x, (d, 0))
                z = torch.tanh(f(p)) * torch.sigmoid(g(p))
                skip = skip + k(z)
                x = x + r(z)
            return self.out(skip)

    class Bottleneck(nn.Module):  # ResNet-D: the shortcut's stride in a 2x2 average pool before its 1x1 Conv
        def __init__(self, i, w, s):
            super().__init__()
            o = 4 * w
            self.f = nn.Sequential(nn.Conv2d(i, w, 1, bias=False), nn.BatchNorm2d(w), nn.ReLU(),
                                   nn.Conv2d(w, w, 3, s, 1, bias=False), nn.BatchNorm2d(w), nn.ReLU(),
                                   nn.Conv2d(w, o, 1, bias=False), nn.BatchNorm2d(o))
            self.sc = nn.Identity() if s == 1 and i == o else nn.Sequential(
                nn.AvgPool2d(s, s, ceil_mode=True, count_include_pad=False) if s > 1 else nn.Identity(),
                nn.Conv2d(i, o, 1, bias=False), nn.BatchNorm2d(o))

        def forward(self, x):
            return F.relu(self.f(x) + self.sc(x))

    class ResNetD(nn.Module):
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU(),
                                      nn.Conv2d(32, 32, 3, 1, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU(),
                                      nn.Conv2d(32, 64, 3, 1, 1, bias=False), nn.BatchNorm2d(64), nn.ReLU(),
                                      nn.MaxPool2d(3, 2, 1))
            layers, i = [], 64
            for w, n, s in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
                for j in range(n):
                    layers.append(Bottleneck(i, w, s if j == 0 else 1))
                    i = 4 * w
            self.body = nn.Sequential(*layers)
            self.head = nn.Linear(2048, 1000)

        def forward(self, x):
            return self.head(self.body(self.stem(x)).mean((2, 3)))

    class Style(nn.Module):  # reflection pads, instance norms, residual blocks, nearest upsampling
        def __init__(self):
            super().__init__()

            def conv(i, o, k, s=1):
                return [nn.ReflectionPad2d(k // 2), nn.Conv2d(i, o, k, s), nn.InstanceNorm2d(o, affine=True),
                        nn.ReLU()]

            self.down = nn.Sequential(*conv(3, 32, 9), *conv(32, 64, 3, 2), *conv(64, 128, 3, 2))
            self.res = nn.ModuleList([nn.Sequential(*conv(128, 128, 3), nn.ReflectionPad2d(1),
                                                    nn.Conv2d(128, 128, 3), nn.InstanceNorm2d(128, affine=True))
                                      for _ in range(5)])
            self.up1 = nn.Sequential(*conv(128, 64, 3))
            self.up2 = nn.Sequential(*conv(64, 32, 3))
            self.out = nn.Sequential(nn.ReflectionPad2d(4), nn.Conv2d(32, 3, 9))

        def forward(self, x):
            x = self.down(x)
            for r in self.res:
                x = x + r(x)
            x = self.up1(F.interpolate(x, scale_factor=2.0, mode="nearest"))
            x = self.up2(F.interpolate(x, scale_factor=2.0, mode="nearest"))
            return self.out(x)

    class Tcn(nn.Module):  # replicate-padded dilated Conv1d blocks over 40 features, a class per sequence
        def __init__(self):
            super().__init__()
            blocks, c = [], 40
            for d in (1, 2, 4, 8, 16, 32):
                blocks.append(nn.Sequential(nn.ReplicationPad1d((2 * d, 0)), nn.Conv1d(c, 96, 3, dilation=d),
                                            nn.BatchNorm1d(96), nn.GELU()))
                c = 96
            self.blocks = nn.ModuleList(blocks)
            self.head = nn.Linear(96, 12)

        def forward(self, x):
            for i, b in enumerate(self.blocks):
                x = b(x) if i == 0 else x + b(x)
            return self.head(x.mean(2))

    export_nets(torch, out, 210, (("tfsame_net_b8_112", TfSame, (8, 3, 112, 112)),
                                  ("wavenet_causal_b4_4000", WaveNet, (4, 1, 4000)),
                                  ("resnetd_b8_96", ResNetD, (8, 3, 96, 96)),
                                  ("styletransfer_b2_160", Style, (2, 3, 160, 160)),
                                  ("tcn_replicate_b16_512", Tcn, (16, 40, 512))), opset=17)
    return 0


def detector_net(torch, make, keys=("boxes", "scores", "labels")):
    """A torchvision detector (`make` builds it) as a module of one image tensor [1, 3, H, W] in, its boxes,
    scores and labels (or `keys`) out, post-processing included (sets 111 to 113)."""

    class Detector(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.m = make()

        def forward(self, x):
            r = self.m([x[0]])[0]
            return tuple(r[k] for k in keys)

    return Detector()


def export_hundred_eleventh_set(torch, torchvision, out):
    # Session 77, after the held-bytes check: detectors with their post-processing, optical flow with its
    # recurrent updates, an MLP-Mixer and a k-NN point-cloud net.
    nn = torch.nn
    det = torchvision.models.detection

    for name, make, shape in (
            ("ssdlite320_mnv3_b1_320", lambda: det.ssdlite320_mobilenet_v3_large(weights=None, weights_backbone=None),
             (1, 3, 320, 320)),
            ("fasterrcnn_mnv3_320_b1",
             lambda: det.fasterrcnn_mobilenet_v3_large_320_fpn(weights=None, weights_backbone=None), (1, 3, 320, 320)),
            ("retinanet_r50_b1_256", lambda: det.retinanet_resnet50_fpn(weights=None, weights_backbone=None),
             (1, 3, 256, 256))):
        export_nets(torch, out, 211, ((name, lambda make=make: detector_net(torch, make), shape),), opset=17)

    class Raft(nn.Module):  # two frames in, the last of 6 flow updates out
        def __init__(self):
            super().__init__()
            self.m = torchvision.models.optical_flow.raft_small(weights=None)

        def forward(self, a, b):
            return self.m(a, b, num_flow_updates=6)[-1]

    torch.manual_seed(211)
    frames = (torch.rand(1, 3, 128, 128), torch.rand(1, 3, 128, 128))
    export_nets(torch, out, 211, (("raft_small_b1_128", Raft, frames),), opset=17)

    class MixerLayer(nn.Module):
        def __init__(self, tokens, d):
            super().__init__()
            self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.tok = nn.Sequential(nn.Linear(tokens, 128), nn.GELU(), nn.Linear(128, tokens))
            self.ch = nn.Sequential(nn.Linear(d, 1024), nn.GELU(), nn.Linear(1024, d))

        def forward(self, x):
            x = x + self.tok(self.n1(x).transpose(1, 2)).transpose(1, 2)
            return x + self.ch(self.n2(x))

    class Mixer(nn.Module):
        def __init__(self):
            super().__init__()
            self.patch = nn.Conv2d(3, 256, 16, 16)
            self.layers = nn.Sequential(*[MixerLayer(64, 256) for _ in range(8)])
            self.n = nn.LayerNorm(256)
            self.head = nn.Linear(256, 100)

        def forward(self, x):
            x = self.patch(x).flatten(2).transpose(1, 2)
            return self.head(self.n(self.layers(x)).mean(1))

    def knn_features(x, k):  # [B, C, N] -> [B, 2C, N, k]: (neighbour - point, point) over the k nearest
        inner = -2 * torch.matmul(x.transpose(2, 1), x)
        sq = (x * x).sum(1, keepdim=True)
        idx = (-sq - inner - sq.transpose(2, 1)).topk(k, dim=-1)[1]
        b, c, n = x.shape
        base = torch.arange(b).view(-1, 1, 1) * n
        flat = x.transpose(2, 1).reshape(b * n, c)
        nb = flat[(idx + base).view(-1)].view(b, n, k, c)
        pt = x.transpose(2, 1).view(b, n, 1, c).expand(-1, -1, k, -1)
        return torch.cat((nb - pt, pt), 3).permute(0, 3, 1, 2)

    class Dgcnn(nn.Module):
        def __init__(self, k=16):
            super().__init__()
            self.k = k
            self.e1 = nn.Sequential(nn.Conv2d(6, 64, 1, bias=False), nn.BatchNorm2d(64), nn.LeakyReLU(0.2))
            self.e2 = nn.Sequential(nn.Conv2d(128, 64, 1, bias=False), nn.BatchNorm2d(64), nn.LeakyReLU(0.2))
            self.e3 = nn.Sequential(nn.Conv2d(128, 128, 1, bias=False), nn.BatchNorm2d(128), nn.LeakyReLU(0.2))
            self.fuse = nn.Sequential(nn.Conv1d(256, 512, 1, bias=False), nn.BatchNorm1d(512), nn.LeakyReLU(0.2))
            self.head = nn.Sequential(nn.Linear(512, 256), nn.ReLU(), nn.Linear(256, 40))

        def forward(self, x):
            x1 = self.e1(knn_features(x, self.k)).max(-1)[0]
            x2 = self.e2(knn_features(x1, self.k)).max(-1)[0]
            x3 = self.e3(knn_features(x2, self.k)).max(-1)[0]
            return self.head(self.fuse(torch.cat((x1, x2, x3), 1)).max(-1)[0])

    export_nets(torch, out, 211, (("mlp_mixer_b8_128", Mixer, (8, 3, 128, 128)),
                                  ("dgcnn_knn_b4_1024", Dgcnn, (4, 3, 1024))), opset=17)
    return 0


def export_hundred_twelfth_set(torch, torchvision, out):
    # Session 77, after the post-processing changes: other detectors, and a YOLO-style one whose decoding,
    # thresholding and NMS are written here.
    nn = torch.nn
    det = torchvision.models.detection

    for name, make, shape in (
            ("ssd300_vgg16_b1_300", lambda: det.ssd300_vgg16(weights=None, weights_backbone=None), (1, 3, 300, 300)),
            ("fasterrcnn_mnv3_fpn_b1_256",
             lambda: det.fasterrcnn_mobilenet_v3_large_fpn(weights=None, weights_backbone=None, min_size=256,
                                                           max_size=256), (1, 3, 256, 256)),
            ("keypointrcnn_r50_b1_192",
             lambda: det.keypointrcnn_resnet50_fpn(weights=None, weights_backbone=None, min_size=192, max_size=192),
             (1, 3, 192, 192))):
        export_nets(torch, out, 212, ((name, lambda make=make: detector_net(torch, make), shape),), opset=17)

    def cbs(i, o, s=1):
        return nn.Sequential(nn.Conv2d(i, o, 3, s, 1, bias=False), nn.BatchNorm2d(o), nn.SiLU())

    class Csp(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.a, self.b = nn.Conv2d(c, c // 2, 1), nn.Conv2d(c, c // 2, 1)
            self.m = nn.Sequential(cbs(c // 2, c // 2), cbs(c // 2, c // 2))
            self.o = nn.Conv2d(c, c, 1)

        def forward(self, x):
            return self.o(torch.cat((self.m(self.a(x)), self.b(x)), 1))

    class Yolo(nn.Module):
        def __init__(self, classes=20, anchors=3):
            super().__init__()
            self.nc, self.na = classes, anchors
            self.s1 = nn.Sequential(cbs(3, 16, 2), cbs(16, 32, 2), Csp(32), cbs(32, 64, 2), Csp(64))
            self.s2 = nn.Sequential(cbs(64, 128, 2), Csp(128))
            self.s3 = nn.Sequential(cbs(128, 256, 2), Csp(256))
            self.heads = nn.ModuleList([nn.Conv2d(c, anchors * (5 + classes), 1) for c in (64, 128, 256)])

        def forward(self, x):
            f1 = self.s1(x)
            f2 = self.s2(f1)
            f3 = self.s3(f2)
            preds = []
            for f, h, stride in zip((f1, f2, f3), self.heads, (8, 16, 32)):
                b, _, hh, ww = f.shape
                p = h(f).view(b, self.na, 5 + self.nc, hh, ww).permute(0, 1, 3, 4, 2).reshape(b, -1, 5 + self.nc)
                gy, gx = torch.meshgrid(torch.arange(hh), torch.arange(ww), indexing="ij")
                grid = torch.stack((gx, gy), -1).view(1, 1, hh, ww, 2).expand(b, self.na, hh, ww, 2).reshape(b, -1, 2)
                xy = (p[..., :2].sigmoid() * 2 - 0.5 + grid) * stride
                wh = (p[..., 2:4].sigmoid() * 2) ** 2 * stride * 4
                preds.append(torch.cat((xy, wh, p[..., 4:].sigmoid()), -1))
            p = torch.cat(preds, 1)[0]  # one image
            boxes = torch.cat((p[:, :2] - p[:, 2:4] / 2, p[:, :2] + p[:, 2:4] / 2), 1)
            scores = p[:, 5:] * p[:, 4:5]
            best, cls = scores.max(1)
            keep = torch.nonzero(best > 0.2).squeeze(1)
            boxes, best, cls = boxes[keep], best[keep], cls[keep]
            kept = torchvision.ops.batched_nms(boxes, best, cls, 0.45)
            return boxes[kept], best[kept], cls[kept]

    export_nets(torch, out, 212, (("yolo_nms_b1_320", Yolo, (1, 3, 320, 320)),), opset=17)
    return 0



def export_hundred_thirteenth_set(torch, torchvision, out):
    # Session 78, before any change: a detector with a mask head, a V2 Swin, a diffusion U-Net, a transducer's
    # joint network and a BiFPN neck.
    nn = torch.nn
    det = torchvision.models.detection
    mask_rcnn = lambda: det.maskrcnn_resnet50_fpn(weights=None, weights_backbone=None, min_size=192, max_size=192)
    export_nets(torch, out, 213, (
        ("maskrcnn_r50_b1_192", lambda: detector_net(torch, mask_rcnn, ("boxes", "scores", "labels", "masks")),
         (1, 3, 192, 192)),), opset=17)
    export_swin_v2(torch, out, 213, "swin_v2_t_b1_256", torchvision.models.swin_v2_t, 256)

    class TimeEmbed(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.d = d
            self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.SiLU(), nn.Linear(4 * d, 4 * d))

        def forward(self, t):
            half = self.d // 2
            f = torch.exp(-9.21 * torch.arange(half, dtype=torch.float32) / half)
            a = t[:, None] * f[None]
            return self.mlp(torch.cat((a.sin(), a.cos()), 1))

    class ResBlock(nn.Module):
        def __init__(self, i, o, e):
            super().__init__()
            self.n1, self.c1 = nn.GroupNorm(8, i), nn.Conv2d(i, o, 3, 1, 1)
            self.t = nn.Linear(e, o)
            self.n2, self.c2 = nn.GroupNorm(8, o), nn.Conv2d(o, o, 3, 1, 1)
            self.skip = nn.Conv2d(i, o, 1) if i != o else nn.Identity()

        def forward(self, x, e):
            h = self.c1(nn.functional.silu(self.n1(x)))
            h = h + self.t(e)[:, :, None, None]
            h = self.c2(nn.functional.silu(self.n2(h)))
            return h + self.skip(x)

    class Attn(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.n, self.qkv, self.o = nn.GroupNorm(8, c), nn.Conv2d(c, 3 * c, 1), nn.Conv2d(c, c, 1)

        def forward(self, x):
            b, c, h, w = x.shape
            q, k, v = self.qkv(self.n(x)).reshape(b, 3, c, h * w).unbind(1)
            a = torch.softmax(q.transpose(1, 2) @ k / c ** 0.5, -1)
            return x + self.o((v @ a.transpose(1, 2)).reshape(b, c, h, w))

    class DiffusionUNet(nn.Module):
        def __init__(self, c=64):
            super().__init__()
            self.emb = TimeEmbed(c)
            e = 4 * c
            self.inp = nn.Conv2d(3, c, 3, 1, 1)
            self.d1, self.d2 = ResBlock(c, c, e), ResBlock(c, 2 * c, e)
            self.down = nn.Conv2d(c, c, 3, 2, 1)
            self.mid, self.attn = ResBlock(2 * c, 2 * c, e), Attn(2 * c)
            self.up = nn.Upsample(scale_factor=2, mode="nearest")
            self.u1, self.u2 = ResBlock(4 * c, c, e), ResBlock(2 * c, c, e)
            self.out = nn.Sequential(nn.GroupNorm(8, c), nn.SiLU(), nn.Conv2d(c, 3, 3, 1, 1))

        def forward(self, x):
            e = self.emb(x.mean((1, 2, 3)) * 1000)
            h0 = self.d1(self.inp(x), e)
            h1 = self.d2(self.down(h0), e)
            m = self.attn(self.mid(h1, e))
            u = self.u1(torch.cat((m, h1), 1), e)
            u = self.u2(torch.cat((self.up(u), h0), 1), e)
            return self.out(u)

    class Transducer(nn.Module):
        def __init__(self, feats=80, hidden=256, vocab=128, labels=20):
            super().__init__()
            self.labels = labels
            self.enc = nn.LSTM(feats, hidden, 2, batch_first=True)
            self.embed = nn.Embedding(vocab, hidden)
            self.pred = nn.LSTM(hidden, hidden, 1, batch_first=True)
            self.je, self.jp, self.jo = nn.Linear(hidden, hidden), nn.Linear(hidden, hidden), nn.Linear(hidden, vocab)

        def forward(self, x):
            f, _ = self.enc(x)
            y = (torch.arange(self.labels)[None].expand(x.shape[0], -1) * 7) % 128
            g, _ = self.pred(self.embed(y))
            j = torch.tanh(self.je(f)[:, :, None] + self.jp(g)[:, None])
            return torch.log_softmax(self.jo(j), -1)

    def sep(c):
        return nn.Sequential(nn.Conv2d(c, c, 3, 1, 1, groups=c, bias=False), nn.Conv2d(c, c, 1, bias=False),
                             nn.BatchNorm2d(c))

    class BiFPN(nn.Module):
        def __init__(self, c=64, levels=5):
            super().__init__()
            self.levels = levels
            self.stem = nn.Sequential(nn.Conv2d(3, c, 3, 4, 1), nn.ReLU())
            self.downs = nn.ModuleList([nn.Sequential(nn.Conv2d(c, c, 3, 2, 1), nn.ReLU()) for _ in range(levels - 1)])
            self.td = nn.ModuleList([sep(c) for _ in range(levels - 1)])
            self.bu = nn.ModuleList([sep(c) for _ in range(levels - 1)])
            self.wtd = nn.Parameter(torch.ones(levels - 1, 2))
            self.wbu = nn.Parameter(torch.ones(levels - 1, 3))
            self.pool = nn.MaxPool2d(3, 2, 1)
            self.head = nn.Conv2d(c, 36, 1)

        def fuse(self, w, xs):
            w = torch.relu(w)
            w = w / (w.sum() + 1e-4)
            return sum(w[i] * x for i, x in enumerate(xs))

        def forward(self, x):
            p = [self.stem(x)]
            for d in self.downs:
                p.append(d(p[-1]))
            td = [p[-1]]
            for i in range(self.levels - 2, -1, -1):
                up = nn.functional.interpolate(td[-1], scale_factor=2.0, mode="nearest")
                td.append(self.td[i](nn.functional.silu(self.fuse(self.wtd[i], (p[i], up)))))
            td = td[::-1]
            outs = [td[0]]
            for i in range(1, self.levels):
                extra = td[i] if i < self.levels - 1 else p[i]
                outs.append(self.bu[i - 1](nn.functional.silu(self.fuse(self.wbu[i - 1], (p[i], extra,
                                                                                          self.pool(outs[-1]))))))
            return torch.cat([self.head(o).flatten(2) for o in outs], 2)

    export_nets(torch, out, 213, (("diffusion_unet_b2_32", DiffusionUNet, (2, 3, 32, 32)),
                                  ("transducer_b2_100x20", Transducer, (2, 100, 80)),
                                  ("bifpn_b4_256", BiFPN, (4, 3, 256, 256))), opset=17)
    return 0



def export_swin_v2(torch, out, seed, name, make, size):
    """A torchvision Swin-V2 (`make`, random weights) on one image of size x size, opset 17 (sets 113, 119).
    Swin-V2 zeroes its key bias in place (`zero_`, which torch 1.13 cannot export): a multiply by 0 instead,
    folded away with the other weights."""
    zero_ = torch.Tensor.zero_
    torch.Tensor.zero_ = lambda t: t.mul_(0)
    try:
        export_nets(torch, out, seed, ((name, lambda: make(weights=None), (1, 3, size, size)),), opset=17)
    finally:
        torch.Tensor.zero_ = zero_


def export_scripted(torch, out, seed, name, net, example):
    """NAME.onnx from `net` (a constructor) scripted, weights from `seed`, opset 17, input x, output y: a loop in
    its forward stays a Loop where its trip count comes from the data (sets 114 to 116)."""
    torch.manual_seed(seed)
    model = torch.jit.script(net().eval())
    torch.onnx.export(model, (example,), os.path.join(out, name + ".onnx"), opset_version=17, input_names=["x"],
                      output_names=["y"])
    print("exported", name, flush=True)


def export_hundred_fourteenth_set(torch, torchvision, out):
    # Session 78, after its changes: two more detectors, and a decoder whose sequence grows a token a step
    # (its scripted loop of a constant count comes out unrolled).
    nn = torch.nn
    det = torchvision.models.detection
    for name, make in (
            ("fcos_r50_b1_192", lambda: det.fcos_resnet50_fpn(weights=None, weights_backbone=None, min_size=192,
                                                              max_size=192)),
            ("fasterrcnn_r50_v2_b1_192",
             lambda: det.fasterrcnn_resnet50_fpn_v2(weights=None, weights_backbone=None, min_size=192,
                                                    max_size=192))):
        export_nets(torch, out, 214, ((name, lambda make=make: detector_net(torch, make), (1, 3, 192, 192)),),
                    opset=17)

    class GreedyDecoder(nn.Module):
        def __init__(self, d=256, steps=48):
            super().__init__()
            self.steps, self.d = steps, d
            self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
            self.cq, self.ck, self.cv = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
            self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
            self.n1, self.n2, self.n3 = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)

        def forward(self, memory):
            seq = memory[:, :1]
            mk, mv = self.ck(memory), self.cv(memory)
            for _ in range(self.steps):
                h = self.n1(seq)
                last = h[:, -1:]
                a = torch.softmax(self.q(last) @ self.k(h).transpose(1, 2) / 16.0, -1) @ self.v(h)
                x = seq[:, -1:] + a
                c = torch.softmax(self.cq(self.n2(x)) @ mk.transpose(1, 2) / 16.0, -1) @ mv
                x = x + c
                x = x + self.ff(self.n3(x))
                seq = torch.cat((seq, x), 1)
            return seq

    export_scripted(torch, out, 214, "greedy_decoder_loop48", GreedyDecoder, torch.rand(1, 32, 256))
    return 0


def export_hundred_fifteenth_set(torch, torchvision, out):
    # Session 79, before any change: a detector with GroupNorm heads, a vector-quantised autoencoder, a GRU
    # decoder kept as a Loop (its trip count from the input's shape) and a pooling-mixer net.
    nn = torch.nn
    det = torchvision.models.detection
    export_nets(torch, out, 215, (("retinanet_r50_v2_b1_192", lambda: detector_net(
        torch, lambda: det.retinanet_resnet50_fpn_v2(weights=None, weights_backbone=None, min_size=192,
                                                     max_size=192)), (1, 3, 192, 192)),), opset=17)

    class VqVae(nn.Module):
        def __init__(self, c=128, d=64, codes=512):
            super().__init__()
            self.enc = nn.Sequential(nn.Conv2d(3, c // 2, 4, 2, 1), nn.ReLU(), nn.Conv2d(c // 2, c, 4, 2, 1), nn.ReLU(),
                                     nn.Conv2d(c, c, 3, 1, 1), nn.ReLU(), nn.Conv2d(c, d, 1))
            self.codebook = nn.Parameter(torch.randn(codes, d))
            self.dec = nn.Sequential(nn.Conv2d(d, c, 3, 1, 1), nn.ReLU(), nn.ConvTranspose2d(c, c // 2, 4, 2, 1),
                                     nn.ReLU(), nn.ConvTranspose2d(c // 2, 3, 4, 2, 1), nn.Sigmoid())

        def forward(self, x):
            z = self.enc(x)
            b, d, h, w = z.shape
            flat = z.permute(0, 2, 3, 1).reshape(-1, d)
            dist = (flat * flat).sum(1, keepdim=True) - 2 * flat @ self.codebook.t() + \
                (self.codebook * self.codebook).sum(1)[None]
            q = self.codebook[dist.argmin(1)].reshape(b, h, w, d).permute(0, 3, 1, 2)
            return self.dec(q)

    class Pool(nn.Module):
        def forward(self, x):
            return nn.functional.avg_pool2d(x, 3, 1, 1, count_include_pad=False) - x

    class Meta4d(nn.Module):
        def __init__(self, c):
            super().__init__()
            self.n1, self.n2 = nn.BatchNorm2d(c), nn.BatchNorm2d(c)
            self.mix = Pool()
            self.mlp = nn.Sequential(nn.Conv2d(c, 4 * c, 1), nn.GELU(), nn.Conv2d(4 * c, c, 1))

        def forward(self, x):
            x = x + self.mix(self.n1(x))
            return x + self.mlp(self.n2(x))

    class EffFormer(nn.Module):
        def __init__(self, widths=(48, 96, 224, 448), depths=(2, 2, 4, 2), classes=1000):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, widths[0] // 2, 3, 2, 1), nn.BatchNorm2d(widths[0] // 2), nn.ReLU(),
                                      nn.Conv2d(widths[0] // 2, widths[0], 3, 2, 1), nn.BatchNorm2d(widths[0]),
                                      nn.ReLU())
            layers = []
            for i, (w, n) in enumerate(zip(widths, depths)):
                if i:
                    layers += [nn.Conv2d(widths[i - 1], w, 3, 2, 1), nn.BatchNorm2d(w)]
                layers += [Meta4d(w) for _ in range(n)]
            self.stages = nn.Sequential(*layers)
            self.attn = nn.TransformerEncoderLayer(widths[-1], 8, 4 * widths[-1], 0.0, "gelu", batch_first=True,
                                                   norm_first=True)
            self.norm = nn.LayerNorm(widths[-1])
            self.head = nn.Linear(widths[-1], classes)

        def forward(self, x):
            t = self.stages(self.stem(x)).flatten(2).transpose(1, 2)
            return self.head(self.norm(self.attn(t)).mean(1))

    export_nets(torch, out, 215, (("vqvae_b2_64", VqVae, (2, 3, 64, 64)),
                                  ("efficientformer_b4_224", EffFormer, (4, 3, 224, 224))), opset=17)

    class GruDecoder(nn.Module):
        def __init__(self, d=512, vocab=256):
            super().__init__()
            self.wi, self.wh = nn.Linear(2 * d, 3 * d), nn.Linear(d, 3 * d)  # a GRU cell (the exporter has none)
            self.out = nn.Linear(d, vocab)
            self.embed = nn.Embedding(vocab, d)

        def forward(self, memory):
            h = memory.mean(1)
            tok = torch.zeros(memory.shape[0], dtype=torch.long)
            logits = []
            for i in range(memory.shape[1]):
                gi = self.wi(torch.cat((self.embed(tok), memory[:, i]), 1)).chunk(3, 1)
                gh = self.wh(h).chunk(3, 1)
                r, z = torch.sigmoid(gi[0] + gh[0]), torch.sigmoid(gi[1] + gh[1])
                h = (1 - z) * torch.tanh(gi[2] + r * gh[2]) + z * h
                step = self.out(h)
                tok = step.argmax(1)
                logits.append(step)
            return torch.stack(logits, 1)

    export_scripted(torch, out, 215, "gru_decoder_loop24", GruDecoder, torch.rand(1, 24, 512))
    return 0


def export_hundred_sixteenth_set(torch, torchvision, out):
    # Session 79, after its changes: a detector whose RoI pools merge their levels by scatters, a graph network
    # that sums its messages by a scatter-add, and a decoder loop that carries a list of its outputs.
    nn = torch.nn
    det = torchvision.models.detection
    export_nets(torch, out, 216, (("maskrcnn_r50_v2_b1_192", lambda: detector_net(
        torch, lambda: det.maskrcnn_resnet50_fpn_v2(weights=None, weights_backbone=None, min_size=192,
                                                    max_size=192), keys=("boxes", "scores", "masks")),
        (1, 3, 192, 192)),), opset=17)

    class Gin(nn.Module):
        def __init__(self, nodes=4096, edges=32768, d=64, layers=3):
            super().__init__()
            g = torch.Generator().manual_seed(216)
            self.register_buffer("src", torch.randint(0, nodes, (edges,), generator=g))
            self.register_buffer("dst", torch.randint(0, nodes, (edges,), generator=g).unsqueeze(1).expand(-1, d))
            self.mlps = nn.ModuleList([nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, d)) for _ in range(layers)])
            self.head = nn.Linear(d, 8)

        def forward(self, x):
            for mlp in self.mlps:
                agg = torch.zeros_like(x).scatter_add(0, self.dst, x[self.src])
                x = torch.relu(mlp(x + agg))
            return self.head(x.mean(0, keepdim=True))

    export_nets(torch, out, 216, (("gin_scatter_4096", Gin, (4096, 64)),), opset=17)

    class LstmDecoder(nn.Module):
        def __init__(self, d=384, vocab=128):
            super().__init__()
            self.wi, self.wh = nn.Linear(d, 4 * d), nn.Linear(d, 4 * d)  # an LSTM cell (the exporter has none)
            self.out = nn.Linear(d, vocab)

        def forward(self, memory):
            h = memory.mean(1)
            c = torch.zeros_like(h)
            outs = []
            for i in range(memory.shape[1]):
                g = (self.wi(memory[:, i]) + self.wh(h)).chunk(4, 1)
                c = torch.sigmoid(g[1]) * c + torch.sigmoid(g[0]) * torch.tanh(g[2])
                h = torch.sigmoid(g[3]) * torch.tanh(c)
                outs.append(torch.log_softmax(self.out(h), -1))
            return torch.stack(outs, 1)

    export_scripted(torch, out, 216, "lstm_decoder_loop40", LstmDecoder, torch.rand(2, 40, 384))
    return 0


def export_hundred_seventeenth_set(torch, torchvision, out):
    # Session 79, after its last change: a two-stage detector, a decoder whose key-value cache grows inside a
    # Loop, and a tabular net of many small tables.
    nn = torch.nn
    det = torchvision.models.detection
    export_nets(torch, out, 217, (("fasterrcnn_r50_b1_192", lambda: detector_net(
        torch, lambda: det.fasterrcnn_resnet50_fpn(weights=None, weights_backbone=None, min_size=192,
                                                   max_size=192)), (1, 3, 192, 192)),), opset=17)

    class KvDecoder(nn.Module):
        def __init__(self, d=192, heads=4):
            super().__init__()
            self.d, self.heads = d, heads
            self.qkv, self.o = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

        def forward(self, memory):
            b = memory.shape[0]
            x = memory[:, 0]
            k = torch.zeros(b, 0, self.d)
            v = torch.zeros(b, 0, self.d)
            outs = []
            for i in range(memory.shape[1]):
                q, kn, vn = self.qkv(self.n1(x + memory[:, i])).chunk(3, -1)
                k = torch.cat((k, kn[:, None]), 1)
                v = torch.cat((v, vn[:, None]), 1)
                hd = self.d // self.heads
                a = torch.softmax((q.reshape(b, self.heads, 1, hd) @ k.reshape(b, -1, self.heads, hd).permute(0, 2, 3, 1))
                                  / 8.0, -1) @ v.reshape(b, -1, self.heads, hd).transpose(1, 2)
                x = x + self.o(a.reshape(b, self.d))
                x = x + self.ff(self.n2(x))
                outs.append(x)
            return torch.stack(outs, 1)

    export_scripted(torch, out, 217, "kv_decoder_loop32", KvDecoder, torch.rand(2, 32, 192))

    class TabNet(nn.Module):
        def __init__(self, d=32):
            super().__init__()
            sizes = [1000 + (k * 7919) % 49000 for k in range(26)]
            self.tables = nn.ModuleList([nn.Embedding(n, d) for n in sizes])
            self.num = nn.Linear(13, d)
            self.attn = nn.MultiheadAttention(d, 4, batch_first=True)
            self.norm = nn.LayerNorm(d)
            self.head = nn.Sequential(nn.Linear(27 * d, 256), nn.ReLU(), nn.Linear(256, 1))

        def forward(self, x):
            cats = (x[:, :26].abs() * 997).long() % 1000
            cols = [t(cats[:, k]) for k, t in enumerate(self.tables)] + [self.num(x[:, 26:])]
            h = torch.stack(cols, 1)
            h = self.norm(h + self.attn(h, h, h, need_weights=False)[0])
            return torch.sigmoid(self.head(h.flatten(1)))

    export_nets(torch, out, 217, (("tab_embed_b64", TabNet, (64, 39)),), opset=17)
    return 0


def export_hundred_eighteenth_set(torch, torchvision, out):
    # Session 80, after its changes: a point-cloud net whose sampling is a data-sized Loop, a greedy decoder
    # feeding its own tokens back, and a diffusion-style UNet.
    nn = torch.nn

    class FpsPointNet(nn.Module):
        def __init__(self, k=16):
            super().__init__()
            self.k = k
            self.mlp = nn.Sequential(nn.Linear(6, 64), nn.ReLU(), nn.Linear(64, 128), nn.ReLU())
            self.head = nn.Sequential(nn.Linear(128, 256), nn.ReLU(), nn.Linear(256, 10))

        def forward(self, pts):
            b, n = pts.shape[0], pts.shape[1]
            dist = torch.full((b, n), 1e10)
            far = torch.zeros(b, dtype=torch.long)
            idx = []
            for _ in range(n // 8):
                idx.append(far)
                c = pts[torch.arange(b), far][:, None]
                dist = torch.minimum(dist, ((pts - c) ** 2).sum(-1))
                far = dist.argmax(-1)
            centres = pts.gather(1, torch.stack(idx, 1)[:, :, None].expand(-1, -1, 3))
            d = ((centres[:, :, None] - pts[:, None]) ** 2).sum(-1)
            nb = d.topk(self.k, -1, largest=False)[1]
            grp = pts[torch.arange(b)[:, None, None], nb]
            feat = self.mlp(torch.cat((grp - centres[:, :, None], grp), -1)).amax(2)
            return self.head(feat.amax(1))

    export_scripted(torch, out, 218, "fps_pointnet_b2_1024", FpsPointNet, torch.rand(2, 1024, 3))

    class GreedyTranslator(nn.Module):
        def __init__(self, d=256, vocab=2000, heads=4):
            super().__init__()
            self.d, self.heads = d, heads
            self.emb = nn.Embedding(vocab, d)
            self.qkv, self.o = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.cq, self.ckv, self.co = nn.Linear(d, d), nn.Linear(d, 2 * d), nn.Linear(d, d)
            self.n1, self.n2, self.n3 = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)
            self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d))
            self.out = nn.Linear(d, vocab)

        def attend(self, q, k, v):
            b, hd = q.shape[0], self.d // self.heads
            w = torch.softmax(q.reshape(b, 1, self.heads, hd).transpose(1, 2)
                              @ k.reshape(b, -1, self.heads, hd).permute(0, 2, 3, 1) / 16.0, -1)
            return (w @ v.reshape(b, -1, self.heads, hd).transpose(1, 2)).reshape(b, self.d)

        def forward(self, memory):
            b = memory.shape[0]
            mk, mv = self.ckv(memory).chunk(2, -1)
            tok = torch.zeros(b, dtype=torch.long)
            ks = torch.zeros(b, 0, self.d)
            vs = torch.zeros(b, 0, self.d)
            toks = []
            for _ in range(memory.shape[1]):
                e = self.emb(tok)
                q, kn, vn = self.qkv(self.n1(e)).chunk(3, -1)
                ks = torch.cat((ks, kn[:, None]), 1)
                vs = torch.cat((vs, vn[:, None]), 1)
                x = e + self.o(self.attend(q, ks, vs))
                x = x + self.co(self.attend(self.cq(self.n2(x)), mk, mv))
                x = x + self.ff(self.n3(x))
                tok = self.out(x).argmax(-1)
                toks.append(tok)
            return torch.stack(toks, 1)

    export_scripted(torch, out, 218, "greedy_translator_loop24", GreedyTranslator, torch.rand(2, 24, 256))

    class ResBlock(nn.Module):
        def __init__(self, i, o, t=128):
            super().__init__()
            self.n1, self.c1 = nn.GroupNorm(8, i), nn.Conv2d(i, o, 3, padding=1)
            self.t = nn.Linear(t, o)
            self.n2, self.c2 = nn.GroupNorm(8, o), nn.Conv2d(o, o, 3, padding=1)
            self.skip = nn.Conv2d(i, o, 1) if i != o else nn.Identity()

        def forward(self, x, temb):
            h = self.c1(nn.functional.silu(self.n1(x))) + self.t(temb)[:, :, None, None]
            return self.skip(x) + self.c2(nn.functional.silu(self.n2(h)))

    class UNet(nn.Module):
        def __init__(self, c=64):
            super().__init__()
            self.tmlp = nn.Sequential(nn.Linear(64, 128), nn.SiLU(), nn.Linear(128, 128))
            self.inp = nn.Conv2d(4, c, 3, padding=1)
            self.d1, self.d2, self.d3 = ResBlock(c, c), ResBlock(c, 2 * c), ResBlock(2 * c, 4 * c)
            self.down = nn.AvgPool2d(2)
            self.attn_norm = nn.GroupNorm(8, 4 * c)
            self.attn = nn.MultiheadAttention(4 * c, 4, batch_first=True)
            self.mid = ResBlock(4 * c, 4 * c)
            self.u3, self.u2, self.u1 = ResBlock(8 * c, 2 * c), ResBlock(4 * c, c), ResBlock(2 * c, c)
            self.outp = nn.Sequential(nn.GroupNorm(8, c), nn.SiLU(), nn.Conv2d(c, 4, 3, padding=1))

        def forward(self, x):
            t = x.mean((1, 2, 3)) * 1000
            freqs = torch.exp(-torch.arange(32, dtype=torch.float32) * (9.21 / 32))
            ang = t[:, None] * freqs[None]
            temb = self.tmlp(torch.cat((ang.sin(), ang.cos()), 1))
            h1 = self.d1(self.inp(x), temb)
            h2 = self.d2(self.down(h1), temb)
            h3 = self.d3(self.down(h2), temb)
            b, c, hh, ww = h3.shape
            a = self.attn_norm(h3).flatten(2).transpose(1, 2)
            h3 = h3 + self.attn(a, a, a, need_weights=False)[0].transpose(1, 2).reshape(b, c, hh, ww)
            m = self.mid(h3, temb)
            u = self.u3(torch.cat((m, h3), 1), temb)
            u = self.u2(torch.cat((nn.functional.interpolate(u, scale_factor=2.0, mode="nearest"), h2), 1), temb)
            u = self.u1(torch.cat((nn.functional.interpolate(u, scale_factor=2.0, mode="nearest"), h1), 1), temb)
            return self.outp(u)

    export_nets(torch, out, 218, (("unet_diffusion_b2_32", UNet, (2, 4, 32, 32)),), opset=17)
    return 0


def export_hundred_nineteenth_set(torch, torchvision, out):
    # Session 81, after its changes: a deep windowed vision transformer, a transformer whose depth the data
    # decides, and a clustering loop that runs until it converges.
    nn = torch.nn
    export_swin_v2(torch, out, 219, "swin_v2_s_b1_128", torchvision.models.swin_v2_s, 128)

    class ActTransformer(nn.Module):
        def __init__(self, d=192, heads=4, max_steps=12):
            super().__init__()
            self.d, self.heads, self.max_steps = d, heads, max_steps
            self.inp = nn.Linear(64, d)
            self.qkv, self.o = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
            self.halt = nn.Linear(d, 1)
            nn.init.constant_(self.halt.bias, -2.5)
            self.step_emb = nn.Parameter(torch.randn(max_steps, d) * 0.02)
            self.cls = nn.Linear(d, 5)

        def layer(self, x):
            b, t = x.shape[0], x.shape[1]
            hd = self.d // self.heads
            q, k, v = self.qkv(self.n1(x)).chunk(3, -1)
            q = q.reshape(b, t, self.heads, hd).transpose(1, 2)
            k = k.reshape(b, t, self.heads, hd).transpose(1, 2)
            v = v.reshape(b, t, self.heads, hd).transpose(1, 2)
            w = torch.softmax(q @ k.transpose(2, 3) / 8.0, -1)
            x = x + self.o((w @ v).transpose(1, 2).reshape(b, t, self.d))
            return x + self.ff(self.n2(x))

        def forward(self, feats):
            x = self.inp(feats)
            halting = torch.zeros(x.shape[0], x.shape[1])
            acc = torch.zeros_like(x)
            step = 0
            while bool((halting < 0.99).any()) and step < self.max_steps:
                x = self.layer(x + self.step_emb[step])
                p = torch.sigmoid(self.halt(x)).squeeze(-1)
                running = (halting < 0.99).float()
                p = torch.minimum(p * running, 1.0 - halting)
                acc = acc + p[:, :, None] * x
                halting = halting + p
                step += 1
            return self.cls((acc + (1.0 - halting)[:, :, None] * x).mean(1))

    export_scripted(torch, out, 219, "act_transformer_b4_t32", ActTransformer, torch.rand(4, 32, 64))

    class KMeans(nn.Module):
        def __init__(self, k=64, dim=32, max_steps=20):
            super().__init__()
            self.k, self.max_steps = k, max_steps
            self.proj = nn.Linear(dim, dim)
            self.init_idx = nn.Parameter(torch.randperm(4096)[:k].float(), requires_grad=False)

        def forward(self, pts):
            z = self.proj(pts)
            c = z[self.init_idx.long()]
            moved = torch.ones(1)
            step = 0
            assign = torch.zeros(z.shape[0], dtype=torch.long)
            while bool(moved.max() > 1e-4) and step < self.max_steps:
                d = (z * z).sum(1, keepdim=True) - 2.0 * z @ c.t() + (c * c).sum(1)[None]
                assign = d.argmin(1)
                onehot = (assign[:, None] == torch.arange(self.k)[None]).float()
                counts = onehot.sum(0)[:, None]
                newc = torch.where(counts > 0, onehot.t() @ z / counts.clamp(min=1.0), c)
                moved = ((newc - c) ** 2).sum(1)
                c = newc
                step += 1
            return torch.cat((c.flatten(), assign.float()))

    export_scripted(torch, out, 219, "kmeans_b4096_k64", KMeans, torch.rand(4096, 32))
    return 0



def export_hundred_twentieth_set(torch, torchvision, out):
    # Session 82, after its changes: a detector with a keypoint head, an iterative solver that runs until it
    # converges, and an encoder that streams its input in chunks with a carried cache.
    nn = torch.nn
    det = torchvision.models.detection
    export_nets(torch, out, 220, (("keypointrcnn_r50_b1_192", lambda: detector_net(
        torch, lambda: det.keypointrcnn_resnet50_fpn(weights=None, weights_backbone=None, min_size=192,
                                                     max_size=192),
        keys=("boxes", "scores", "labels", "keypoints")), (1, 3, 192, 192)),), opset=17)

    class CgSolver(nn.Module):
        def __init__(self, n=48, max_steps=25):
            super().__init__()
            self.n, self.max_steps = n, max_steps
            self.lfac = nn.Linear(n, n * n)
            self.rhs = nn.Linear(n, n)
            self.out = nn.Linear(n, 10)

        def forward(self, x):
            b = x.shape[0]
            low = self.lfac(x).reshape(b, self.n, self.n) * 0.1
            a = low @ low.transpose(1, 2) + torch.eye(self.n)[None] * float(self.n) * 0.05
            r = self.rhs(x)[:, :, None]
            sol = torch.zeros_like(r)
            p = r
            rs = (r * r).sum(1)
            step = 0
            while bool(rs.max() > 1e-8) and step < self.max_steps:
                ap = a @ p
                alpha = rs / (p * ap).sum(1)
                sol = sol + alpha[:, :, None] * p
                r = r - alpha[:, :, None] * ap
                rs_new = (r * r).sum(1)
                p = r + (rs_new / rs)[:, :, None] * p
                rs = rs_new
                step += 1
            return self.out(sol.squeeze(-1))

    export_scripted(torch, out, 220, "cg_solver_b64_n48", CgSolver, torch.rand(64, 48))

    class StreamEncoder(nn.Module):
        def __init__(self, d=144, heads=4, chunk=16, cache=48):
            super().__init__()
            self.d, self.heads, self.chunk, self.cache = d, heads, chunk, cache
            self.inp = nn.Linear(80, d)
            self.qkv, self.o = nn.Linear(d, 3 * d), nn.Linear(d, d)
            self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.SiLU(), nn.Linear(4 * d, d))
            self.cls = nn.Linear(d, 12)

        def forward(self, feats):
            x = self.inp(feats)
            b, t = x.shape[0], x.shape[1]
            hd = self.d // self.heads
            ck = torch.zeros(b, 0, self.d)
            cv = torch.zeros(b, 0, self.d)
            outs = []
            for s in range(0, t, self.chunk):
                c = x[:, s:s + self.chunk]
                n = c.shape[1]
                q, k, v = self.qkv(self.n1(c)).chunk(3, -1)
                ck = torch.cat((ck, k), 1)[:, -self.cache:]
                cv = torch.cat((cv, v), 1)[:, -self.cache:]
                m = ck.shape[1]
                qh = q.reshape(b, n, self.heads, hd).transpose(1, 2)
                kh = ck.reshape(b, m, self.heads, hd).transpose(1, 2)
                vh = cv.reshape(b, m, self.heads, hd).transpose(1, 2)
                w = torch.softmax(qh @ kh.transpose(2, 3) / 6.0, -1)
                c = c + self.o((w @ vh).transpose(1, 2).reshape(b, n, self.d))
                c = c + self.ff(self.n2(c))
                outs.append(c)
            return self.cls(torch.cat(outs, 1).mean(1))

    export_scripted(torch, out, 220, "stream_encoder_b2_t128", StreamEncoder, torch.rand(2, 128, 80))
    return 0


if __name__ == "__main__":
    sys.exit(main())

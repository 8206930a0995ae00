//! The policy-value network f(s) = (p, v) on the CPU (candle): a residual tower, a policy head over the game's
//! action space and a value head in [−1, 1].
//!
//! The tower: a 3 × 3 convolution from the input planes to `channels` channels, batch norm, ReLU; then
//! `blocks` residual blocks (3 × 3 convolution, batch norm, ReLU, 3 × 3 convolution, batch norm, the block's
//! input added, ReLU). The policy head: a 1 × 1 convolution to 2 channels, batch norm, ReLU, a linear layer to
//! the actions' logits. The value head: a 1 × 1 convolution to 1 channel, batch norm, ReLU, a linear layer to
//! [`VALUE_HIDDEN`] units, ReLU, a linear layer to one value, tanh. AlphaZero's network, sized by
//! [`Architecture`].
//!
//! Weights are drawn from a seed (candle's own generator cannot be seeded on the CPU), uniform in
//! ±1/√fan-in as PyTorch's default initialisation draws them; batch norm starts at the identity.

use crate::architecture::{Architecture, VALUE_HIDDEN};
use crate::encode::Encode;
use crate::model::Model;
use candle_core::{D, DType, Device, Module, ModuleT, Tensor, Var};
use candle_nn::{AdamW, BatchNorm, BatchNormConfig, Linear, Optimizer, ParamsAdamW, VarBuilder, VarMap};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use thiserror::Error;

/// What went wrong in the network: a tensor operation failed (weights that do not fit the architecture, a
/// file that is not safetensors). Its message is candle's on one line, without the backtrace candle appends
/// when `RUST_BACKTRACE` is set (a user's error, not a bug); not its source too, which would say it twice.
#[derive(Debug, Error)]
#[error("network: {0}")]
pub struct NetError(String);

impl From<candle_core::Error> for NetError {
    fn from(error: candle_core::Error) -> NetError {
        /// The error's words: its context and path kept, its backtraces dropped, its lines joined.
        fn words(error: &candle_core::Error) -> String {
            match error {
                candle_core::Error::WithBacktrace { inner, .. } => words(inner),
                candle_core::Error::Context { inner, context } => format!("{context}: {}", words(inner)),
                candle_core::Error::WithPath { inner, path } => format!("{}: {}", path.display(), words(inner)),
                other => other.to_string().lines().collect::<Vec<_>>().join(" "),
            }
        }
        NetError(words(&error))
    }
}

/// The board's cells for a batch of positions: how the tower lays out its activations and gathers a 3 × 3
/// convolution's patches.
///
/// Activations are a matrix with a row per cell of each position (position-major, then row-major over the
/// board) and a column per channel. A convolution is then one matrix product of the cells' patches (a row per
/// cell: its 3 × 3 neighbours' channels, zeros off the board) and the kernel as a matrix. candle's own
/// convolution does this position by position, gathering each patch element by element; on boards of a few
/// dozen cells that gathering takes more time than the products (measured: see docs/src/measured-choices.md,
/// 'khela-zero'), and one product per layer over the whole batch keeps the matrix kernel busy.
struct Grid {
    /// The neighbours' rows, 9 a cell in the kernel's order (row offset, then column offset); `u32::MAX` off
    /// the board, which candle's gather reads as zeros (and its gradient skips).
    neighbours: Tensor,
}

impl Grid {
    fn new(a: &Architecture, batch: usize) -> candle_core::Result<Grid> {
        let (height, width) = (a.height as isize, a.width as isize);
        let cells = a.height * a.width;
        let mut rows = Vec::with_capacity(batch * cells * 9);
        for position in 0..batch {
            for (r, c) in (0..height).flat_map(|r| (0..width).map(move |c| (r, c))) {
                for (dr, dc) in (-1..=1).flat_map(|dr| (-1..=1).map(move |dc| (dr, dc))) {
                    let (r, c) = (r + dr, c + dc);
                    let inside = (0..height).contains(&r) && (0..width).contains(&c);
                    rows.push(if inside { (position * cells) as u32 + (r * width + c) as u32 } else { u32::MAX });
                }
            }
        }
        let len = rows.len();
        Ok(Grid { neighbours: Tensor::from_vec(rows, len, &Device::Cpu)? })
    }

    /// The patches of a `kernel` × `kernel` convolution (1 or 3) over the activations `x` (cells × channels):
    /// cells × (kernel² × channels).
    fn patches(&self, x: &Tensor, kernel: usize) -> candle_core::Result<Tensor> {
        if kernel == 1 {
            return Ok(x.clone());
        }
        let (cells, channels) = x.dims2()?;
        x.index_select(&self.neighbours, 0)?.reshape((cells, kernel * kernel * channels))
    }
}

/// A layer of the tower as a pass applies it: a convolution over the cells' activations, its batch norm
/// included.
trait Conv {
    fn apply(&self, x: &Tensor, grid: &Grid) -> candle_core::Result<Tensor>;
}

/// A 3 × 3 or 1 × 1 convolution without bias, then batch norm: the trained weights (the convolution's in
/// PyTorch's layout, out × in × kernel × kernel). As a [`Conv`] it is training's layer: batch norm by the
/// batch's statistics, its running statistics updated.
struct ConvNorm {
    weight: Tensor,
    norm: BatchNorm,
    kernel: usize,
}

impl ConvNorm {
    fn new(from: usize, to: usize, kernel: usize, vb: VarBuilder) -> Result<ConvNorm, NetError> {
        Ok(ConvNorm {
            weight: vb.pp("conv").get((to, from, kernel, kernel), "weight")?,
            norm: candle_nn::batch_norm(to, BatchNormConfig::default(), vb.pp("norm"))?,
            kernel,
        })
    }

    /// The kernel as a matrix: (kernel² × in) × out, rows in the order of [`Grid::patches`]' columns.
    fn matrix(&self) -> candle_core::Result<Tensor> {
        let (to, from, k, _) = self.weight.dims4()?;
        self.weight.permute((2, 3, 1, 0))?.reshape((k * k * from, to))
    }

    /// The layer for inference: batch norm by its running statistics folded into the kernel and a bias.
    fn fold(&self) -> candle_core::Result<Folded> {
        let (gamma, beta) = self.norm.weight_and_bias().ok_or_else(|| candle_core::Error::Msg("affine".into()))?;
        let scale = (gamma / (self.norm.running_var() + self.norm.eps())?.sqrt()?)?;
        let bias = (beta - (self.norm.running_mean() * &scale)?)?;
        Ok(Folded { matrix: self.matrix()?.broadcast_mul(&scale)?, bias, kernel: self.kernel })
    }
}

impl Conv for ConvNorm {
    fn apply(&self, x: &Tensor, grid: &Grid) -> candle_core::Result<Tensor> {
        self.norm.forward_t(&grid.patches(x, self.kernel)?.matmul(&self.matrix()?)?, true)
    }
}

/// A [`ConvNorm`] for inference: one matrix product and a bias.
struct Folded {
    matrix: Tensor,
    bias: Tensor,
    kernel: usize,
}

impl Conv for Folded {
    fn apply(&self, x: &Tensor, grid: &Grid) -> candle_core::Result<Tensor> {
        grid.patches(x, self.kernel)?.matmul(&self.matrix)?.broadcast_add(&self.bias)
    }
}

/// The convolutions: training's ([`ConvNorm`]) or inference's ([`Folded`]).
struct Tower<L> {
    stem: L,
    blocks: Vec<(L, L)>,
    policy: L,
    value: L,
}

/// The heads' linear layers (which training and inference share).
struct Heads {
    policy_out: Linear,
    value_hidden: Linear,
    value_out: Linear,
}

impl Tower<ConvNorm> {
    fn new(a: &Architecture, vb: &VarBuilder) -> Result<Tower<ConvNorm>, NetError> {
        let c = a.channels;
        let blocks = (0..a.blocks)
            .map(|i| {
                let vb = vb.pp(format!("block{i}"));
                Ok((ConvNorm::new(c, c, 3, vb.pp("a"))?, ConvNorm::new(c, c, 3, vb.pp("b"))?))
            })
            .collect::<Result<_, NetError>>()?;
        Ok(Tower {
            stem: ConvNorm::new(a.planes, c, 3, vb.pp("stem"))?,
            blocks,
            policy: ConvNorm::new(c, 2, 1, vb.pp("policy"))?,
            value: ConvNorm::new(c, 1, 1, vb.pp("value"))?,
        })
    }

    fn fold(&self) -> candle_core::Result<Tower<Folded>> {
        Ok(Tower {
            stem: self.stem.fold()?,
            blocks: self.blocks.iter().map(|(a, b)| Ok((a.fold()?, b.fold()?))).collect::<candle_core::Result<_>>()?,
            policy: self.policy.fold()?,
            value: self.value.fold()?,
        })
    }
}

impl Heads {
    fn new(a: &Architecture, vb: &VarBuilder) -> Result<Heads, NetError> {
        let cells = a.height * a.width;
        Ok(Heads {
            policy_out: candle_nn::linear(2 * cells, a.actions, vb.pp("policy_out"))?,
            value_hidden: candle_nn::linear(cells, VALUE_HIDDEN, vb.pp("value_hidden"))?,
            value_out: candle_nn::linear(VALUE_HIDDEN, 1, vb.pp("value_out"))?,
        })
    }
}

impl<L: Conv> Tower<L> {
    /// The logits (batch × actions) and values (batch × 1) of `batch` encoded positions (`input`: each
    /// position's planes, one after the other).
    fn forward(
        &self,
        heads: &Heads,
        a: &Architecture,
        input: &[f32],
        batch: usize,
    ) -> candle_core::Result<(Tensor, Tensor)> {
        let cells = a.height * a.width;
        let grid = Grid::new(a, batch)?;
        // The planes of each position, transposed to a row per cell.
        let x = Tensor::from_slice(input, (batch, a.planes, cells), &Device::Cpu)?;
        let mut x = x.transpose(1, 2)?.reshape((batch * cells, a.planes))?;
        x = self.stem.apply(&x, &grid)?.relu()?;
        for (first, second) in &self.blocks {
            let y = first.apply(&x, &grid)?.relu()?;
            x = (second.apply(&y, &grid)? + &x)?.relu()?;
        }
        // The policy's two channels flattened channel by channel, as the weights were laid out for.
        let p = self.policy.apply(&x, &grid)?.relu()?.reshape((batch, cells, 2))?.transpose(1, 2)?;
        let p = heads.policy_out.forward(&p.flatten_from(1)?)?;
        let v = self.value.apply(&x, &grid)?.relu()?.reshape((batch, cells))?;
        let v = heads.value_hidden.forward(&v)?.relu()?;
        let v = heads.value_out.forward(&v)?.tanh()?;
        Ok((p, v))
    }
}

/// The network: its architecture, its weights, its layers as training applies them and as inference does.
pub struct Net {
    architecture: Architecture,
    vars: VarMap,
    tower: Tower<ConvNorm>,
    heads: Heads,
    /// The tower with batch norm folded in, refolded whenever the weights change.
    folded: Tower<Folded>,
}

impl Net {
    /// A network with weights drawn from `seed`: the same seed, the same weights.
    pub fn new(architecture: Architecture, seed: u64) -> Result<Net, NetError> {
        let mut net = Net::empty(architecture)?;
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let vars = net.named_vars();
        for (name, var) in &vars {
            // The weights of convolutions and linear layers (rank 2 or more), and the linear layers' biases (the
            // bias of `x.weight` is `x.bias`), uniform in ±1/√fan-in; batch norm keeps its identity start.
            let fan_in = if var.rank() >= 2 {
                var.dims()[1..].iter().product::<usize>()
            } else if let Some(layer) = name.strip_suffix(".bias")
                && !layer.ends_with(".norm")
                && let Some((_, weight)) = vars.iter().find(|(n, _)| *n == format!("{layer}.weight"))
            {
                weight.dims()[1..].iter().product()
            } else {
                continue;
            };
            let bound = 1.0 / (fan_in as f32).sqrt();
            let values: Vec<f32> = (0..var.elem_count()).map(|_| bound * (2.0 * rng.random::<f32>() - 1.0)).collect();
            var.set(&Tensor::from_vec(values, var.shape(), &Device::Cpu)?)?;
        }
        net.refold()?;
        Ok(net)
    }

    /// Folds the weights as they are now into inference's tower.
    fn refold(&mut self) -> Result<(), NetError> {
        self.folded = self.tower.fold()?;
        Ok(())
    }

    /// The layers of `architecture` with candle's initial weights (to be overwritten).
    fn empty(architecture: Architecture) -> Result<Net, NetError> {
        let vars = VarMap::new();
        let vb = VarBuilder::from_varmap(&vars, DType::F32, &Device::Cpu);
        let (tower, heads) = (Tower::new(&architecture, &vb)?, Heads::new(&architecture, &vb)?);
        let folded = tower.fold()?;
        Ok(Net { architecture, vars, tower, heads, folded })
    }

    /// The weights (and batch norm's running statistics) by name, in name order.
    fn named_vars(&self) -> Vec<(String, Var)> {
        let map = self.vars.data().lock().expect("no thread panics holding the weights");
        let mut vars: Vec<(String, Var)> = map.iter().map(|(n, v)| (n.clone(), v.clone())).collect();
        vars.sort_by(|a, b| a.0.cmp(&b.0));
        vars
    }

    /// The architecture.
    pub fn architecture(&self) -> &Architecture {
        &self.architecture
    }

    /// The number of trained parameters (batch norm's running statistics not counted).
    pub fn parameters(&self) -> usize {
        self.named_vars().iter().filter(|(n, _)| !n.contains("running")).map(|(_, v)| v.elem_count()).sum()
    }

    /// The logits (`batch` × actions) and values (`batch`) of `batch` encoded positions, batch norm by its
    /// running statistics (inference).
    pub fn forward(&self, input: &[f32], batch: usize) -> Result<(Vec<f32>, Vec<f32>), NetError> {
        let a = &self.architecture;
        assert_eq!(input.len(), batch * a.planes * a.height * a.width, "a batch of {batch} positions");
        let (p, v) = self.folded.forward(&self.heads, a, input, batch)?;
        Ok((p.flatten_all()?.to_vec1()?, v.flatten_all()?.to_vec1()?))
    }

    /// The weights in the safetensors format.
    pub fn to_safetensors(&self) -> Result<Vec<u8>, NetError> {
        let vars = self.named_vars();
        let tensors = vars.iter().map(|(n, v)| (n.as_str(), v.as_tensor()));
        safetensors::tensor::serialize(tensors, None).map_err(|e| NetError::from(candle_core::Error::from(e)))
    }

    /// A network of `architecture` with the weights of a safetensors buffer (every weight must be there, in
    /// its shape).
    pub fn from_safetensors(architecture: Architecture, bytes: &[u8]) -> Result<Net, NetError> {
        let mut net = Net::empty(architecture)?;
        let mut saved = candle_core::safetensors::load_buffer(bytes, &Device::Cpu)?;
        for (name, var) in net.named_vars() {
            let tensor = saved.remove(&name).ok_or_else(|| candle_core::Error::Msg(format!("no weight {name}")))?;
            // A damaged or diverged network (NaN or infinite weights) would search on noise without a word.
            let values: Vec<f32> = tensor.flatten_all()?.to_dtype(candle_core::DType::F32)?.to_vec1()?;
            let bad = values.iter().filter(|v| !v.is_finite()).count();
            if bad > 0 {
                return Err(candle_core::Error::Msg(format!(
                    "the weight {name} holds {bad} values that are not finite numbers (NaN or infinite): a damaged \
                     or diverged network"
                ))
                .into());
            }
            if tensor.dims() != var.dims() {
                return Err(candle_core::Error::Msg(format!(
                    "the weight {name} has the shape {:?}, not the {:?} of the architecture described: the \
                     description and the weights are of different networks",
                    tensor.dims(),
                    var.dims()
                ))
                .into());
            }
            var.set(&tensor)?;
        }
        if let Some(name) = saved.keys().next() {
            return Err(candle_core::Error::Msg(format!("a weight {name} the architecture does not have")).into());
        }
        net.refold()?;
        Ok(net)
    }
}

impl<G: Encode> Model<G> for Net {
    /// # Panics
    ///
    /// If the network does not fit the game (front ends check [`Architecture::fits`] when they load it).
    fn evaluate(&self, _: &G, input: &[f32], batch: usize, logits: &mut Vec<f32>, values: &mut Vec<f32>) {
        (*logits, *values) = self.forward(input, batch).expect("a forward pass of a network that fits the game");
    }
}

/// The terms of the training loss of one batch.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Losses {
    /// The policy's cross-entropy against the search's visit shares.
    pub policy: f32,
    /// The value's squared error against the game's outcome.
    pub value: f32,
    /// The L2 penalty: the weight decay times the sum of the squared weights.
    pub l2: f32,
}

/// Training: Adam on policy cross-entropy + value squared error + L2.
pub struct Trainer {
    net: Net,
    optimizer: AdamW,
    l2: f64,
}

impl Trainer {
    /// A trainer of `net` with Adam's learning rate and the L2 weight (AlphaZero: 1e-4).
    pub fn new(net: Net, learning_rate: f64, l2: f64) -> Result<Trainer, NetError> {
        let vars = net.named_vars().into_iter().filter(|(n, _)| !n.contains("running")).map(|(_, v)| v).collect();
        let params = ParamsAdamW { lr: learning_rate, weight_decay: 0.0, ..Default::default() };
        Ok(Trainer { optimizer: AdamW::new(vars, params)?, net, l2 })
    }

    /// The network being trained.
    pub fn net(&self) -> &Net {
        &self.net
    }

    /// The network, training done.
    pub fn into_net(self) -> Net {
        self.net
    }

    /// One step on a batch: `input` (`batch` encoded positions), `policy` (`batch` × actions visit shares,
    /// each summing to 1) and `value` (`batch` outcomes in [−1, 1], side to move's view). Returns the batch's
    /// losses before the step.
    pub fn step(&mut self, input: &[f32], policy: &[f32], value: &[f32], batch: usize) -> Result<Losses, NetError> {
        let a = self.net.architecture;
        let target_p = Tensor::from_slice(policy, (batch, a.actions), &Device::Cpu)?;
        let target_v = Tensor::from_slice(value, batch, &Device::Cpu)?;
        let (p, v) = self.net.tower.forward(&self.net.heads, &a, input, batch)?;
        let log_p = candle_nn::ops::log_softmax(&p, D::Minus1)?;
        let policy_loss = (log_p * &target_p)?.sum(1)?.mean_all()?.neg()?;
        let value_loss = (v.squeeze(1)? - &target_v)?.sqr()?.mean_all()?;
        let mut squares = Tensor::zeros((), DType::F32, &Device::Cpu)?;
        for (name, var) in self.net.named_vars() {
            if name.ends_with(".weight") && var.rank() >= 2 {
                squares = (squares + var.as_tensor().sqr()?.sum_all()?)?;
            }
        }
        let l2 = (squares * self.l2)?;
        let loss = ((&policy_loss + &value_loss)? + &l2)?;
        self.optimizer.backward_step(&loss)?;
        self.net.refold()?;
        Ok(Losses { policy: policy_loss.to_scalar()?, value: value_loss.to_scalar()?, l2: l2.to_scalar()? })
    }
}

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

use crate::encode::{Encode, Shape};
use crate::model::Model;
use candle_core::{D, DType, Device, Module, ModuleT, Tensor, Var};
use candle_nn::{
    AdamW, BatchNorm, BatchNormConfig, Conv2d, Conv2dConfig, Linear, Optimizer, ParamsAdamW, VarBuilder, VarMap,
};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The units of the value head's hidden layer.
pub const VALUE_HIDDEN: usize = 64;

/// The network's size and the game's shapes: all a saved network needs beside its weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Architecture {
    /// Residual blocks.
    pub blocks: usize,
    /// Channels of the tower.
    pub channels: usize,
    /// Input planes.
    pub planes: usize,
    /// Board rows.
    pub height: usize,
    /// Board columns.
    pub width: usize,
    /// The action space.
    pub actions: usize,
}

impl Architecture {
    /// A tower of `blocks` blocks of `channels` channels for `game`'s encoding.
    pub fn for_game<G: Encode>(game: &G, blocks: usize, channels: usize) -> Architecture {
        let Shape { planes, height, width } = game.shape();
        Architecture { blocks, channels, planes, height, width, actions: game.actions() }
    }

    /// Whether the network fits `game`'s encoding.
    pub fn fits<G: Encode>(&self, game: &G) -> bool {
        let Shape { planes, height, width } = game.shape();
        (self.planes, self.height, self.width, self.actions) == (planes, height, width, game.actions())
    }

    /// The values of one encoded position.
    fn input_len(&self) -> usize {
        self.planes * self.height * self.width
    }
}

/// What went wrong in the network: a tensor operation failed (weights that do not fit the architecture, a
/// file that is not safetensors).
#[derive(Debug, Error)]
#[error("network: {0}")]
pub struct NetError(#[from] candle_core::Error);

/// A 3 × 3 or 1 × 1 convolution without bias, then batch norm.
struct ConvNorm {
    conv: Conv2d,
    norm: BatchNorm,
}

impl ConvNorm {
    fn new(from: usize, to: usize, kernel: usize, vb: VarBuilder) -> Result<ConvNorm, NetError> {
        let config = Conv2dConfig { padding: kernel / 2, ..Default::default() };
        Ok(ConvNorm {
            conv: candle_nn::conv2d_no_bias(from, to, kernel, config, vb.pp("conv"))?,
            norm: candle_nn::batch_norm(to, BatchNormConfig::default(), vb.pp("norm"))?,
        })
    }

    fn forward(&self, x: &Tensor, train: bool) -> candle_core::Result<Tensor> {
        self.norm.forward_t(&self.conv.forward(x)?, train)
    }
}

/// The layers.
struct Layers {
    stem: ConvNorm,
    blocks: Vec<(ConvNorm, ConvNorm)>,
    policy: ConvNorm,
    policy_out: Linear,
    value: ConvNorm,
    value_hidden: Linear,
    value_out: Linear,
}

impl Layers {
    fn new(a: &Architecture, vb: VarBuilder) -> Result<Layers, NetError> {
        let (c, cells) = (a.channels, a.height * a.width);
        let blocks = (0..a.blocks)
            .map(|i| {
                let vb = vb.pp(format!("block{i}"));
                Ok((ConvNorm::new(c, c, 3, vb.pp("a"))?, ConvNorm::new(c, c, 3, vb.pp("b"))?))
            })
            .collect::<Result<_, NetError>>()?;
        Ok(Layers {
            stem: ConvNorm::new(a.planes, c, 3, vb.pp("stem"))?,
            blocks,
            policy: ConvNorm::new(c, 2, 1, vb.pp("policy"))?,
            policy_out: candle_nn::linear(2 * cells, a.actions, vb.pp("policy_out"))?,
            value: ConvNorm::new(c, 1, 1, vb.pp("value"))?,
            value_hidden: candle_nn::linear(cells, VALUE_HIDDEN, vb.pp("value_hidden"))?,
            value_out: candle_nn::linear(VALUE_HIDDEN, 1, vb.pp("value_out"))?,
        })
    }

    /// The logits (batch × actions) and values (batch × 1) of a batch of positions (batch × planes × height ×
    /// width); `train`: batch norm by the batch's statistics (and its running statistics updated).
    fn forward(&self, x: &Tensor, train: bool) -> candle_core::Result<(Tensor, Tensor)> {
        let mut x = self.stem.forward(x, train)?.relu()?;
        for (a, b) in &self.blocks {
            let y = a.forward(&x, train)?.relu()?;
            x = (b.forward(&y, train)? + &x)?.relu()?;
        }
        let p = self.policy.forward(&x, train)?.relu()?.flatten_from(1)?;
        let p = self.policy_out.forward(&p)?;
        let v = self.value.forward(&x, train)?.relu()?.flatten_from(1)?;
        let v = self.value_hidden.forward(&v)?.relu()?;
        let v = self.value_out.forward(&v)?.tanh()?;
        Ok((p, v))
    }
}

/// The network: its architecture, its weights and its layers.
pub struct Net {
    architecture: Architecture,
    vars: VarMap,
    layers: Layers,
}

impl Net {
    /// A network with weights drawn from `seed`: the same seed, the same weights.
    pub fn new(architecture: Architecture, seed: u64) -> Result<Net, NetError> {
        let net = Net::empty(architecture)?;
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
        Ok(net)
    }

    /// The layers of `architecture` with candle's initial weights (to be overwritten).
    fn empty(architecture: Architecture) -> Result<Net, NetError> {
        let vars = VarMap::new();
        let layers = Layers::new(&architecture, VarBuilder::from_varmap(&vars, DType::F32, &Device::Cpu))?;
        Ok(Net { architecture, vars, layers })
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
        assert_eq!(input.len(), batch * a.input_len(), "a batch of {batch} positions");
        let x = Tensor::from_slice(input, (batch, a.planes, a.height, a.width), &Device::Cpu)?;
        let (p, v) = self.layers.forward(&x, false)?;
        Ok((p.flatten_all()?.to_vec1()?, v.flatten_all()?.to_vec1()?))
    }

    /// The weights in the safetensors format.
    pub fn to_safetensors(&self) -> Result<Vec<u8>, NetError> {
        let vars = self.named_vars();
        let tensors = vars.iter().map(|(n, v)| (n.as_str(), v.as_tensor()));
        safetensors::tensor::serialize(tensors, None).map_err(|e| NetError(e.into()))
    }

    /// A network of `architecture` with the weights of a safetensors buffer (every weight must be there, in
    /// its shape).
    pub fn from_safetensors(architecture: Architecture, bytes: &[u8]) -> Result<Net, NetError> {
        let net = Net::empty(architecture)?;
        let mut saved = candle_core::safetensors::load_buffer(bytes, &Device::Cpu)?;
        for (name, var) in net.named_vars() {
            let tensor = saved.remove(&name).ok_or_else(|| candle_core::Error::Msg(format!("no weight {name}")))?;
            var.set(&tensor)?;
        }
        if let Some(name) = saved.keys().next() {
            return Err(candle_core::Error::Msg(format!("a weight {name} the architecture does not have")).into());
        }
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
        let x = Tensor::from_slice(input, (batch, a.planes, a.height, a.width), &Device::Cpu)?;
        let target_p = Tensor::from_slice(policy, (batch, a.actions), &Device::Cpu)?;
        let target_v = Tensor::from_slice(value, batch, &Device::Cpu)?;
        let (p, v) = self.net.layers.forward(&x, true)?;
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
        Ok(Losses { policy: policy_loss.to_scalar()?, value: value_loss.to_scalar()?, l2: l2.to_scalar()? })
    }
}

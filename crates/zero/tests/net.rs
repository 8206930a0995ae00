//! The network: seeded weights, the safetensors round trip, outputs in range, and training that fits a small
//! batch.

use khela_games::connect4::Connect4;
use khela_games::tictactoe::TicTacToe;
use khela_zero::{Architecture, Encode, Net, Trainer};

fn input(game: &TicTacToe, texts: &[&str]) -> Vec<f32> {
    let mut out = vec![0.0; texts.len() * game.shape().len()];
    for (text, chunk) in texts.iter().zip(out.chunks_exact_mut(game.shape().len())) {
        game.encode(&TicTacToe::parse(text).unwrap(), chunk);
    }
    out
}

#[test]
fn weights_come_from_the_seed_and_survive_a_round_trip() {
    let arch = Architecture::for_game(&TicTacToe, 2, 8);
    let x = input(&TicTacToe, &[".........", "X...O....", "XX.OO...."]);
    let a = Net::new(arch, 1).unwrap();
    let (logits, values) = a.forward(&x, 3).unwrap();
    assert_eq!((logits.len(), values.len()), (27, 3));
    assert!(values.iter().all(|v| (-1.0..=1.0).contains(v)));
    assert_eq!(Net::new(arch, 1).unwrap().forward(&x, 3).unwrap(), (logits.clone(), values.clone()));
    assert_ne!(Net::new(arch, 2).unwrap().forward(&x, 3).unwrap().0, logits);
    let bytes = a.to_safetensors().unwrap();
    let b = Net::from_safetensors(arch, &bytes).unwrap();
    assert_eq!(b.forward(&x, 3).unwrap(), (logits, values));
    assert_eq!(b.to_safetensors().unwrap(), bytes);
    // Weights of another architecture are refused, naming what is missing or extra.
    let other = Architecture { channels: 4, ..arch };
    let error = Net::from_safetensors(other, &bytes).err().unwrap();
    // One line, said once, with no backtrace (candle appends one when RUST_BACKTRACE is set).
    let shown = error.to_string();
    assert!(shown.starts_with("network: the weight ") && shown.contains("of different networks"), "{shown}");
    assert!(!shown.contains('\n'), "{shown}");
    assert!(std::error::Error::source(&error).is_none(), "a source would say the message twice");
    let deeper = Architecture { blocks: 3, ..arch };
    let error = Net::from_safetensors(deeper, &bytes).err().unwrap().to_string();
    assert!(error.contains("block2"), "{error}");
    let error = Net::from_safetensors(arch, b"not safetensors").err().unwrap().to_string();
    assert!(error.starts_with("network: ") && !error.contains('\n'), "{error}");
    // A weight made NaN (the first value after the header): refused, naming the weight.
    let header = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    let mut damaged = bytes.clone();
    damaged[8 + header..8 + header + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    let error = Net::from_safetensors(arch, &damaged).err().unwrap().to_string();
    assert!(error.contains("1 values that are not finite numbers"), "{error}");
    // 2 blocks of 8 channels on 3 planes of 3 × 3 with 9 actions: the parameters counted by hand.
    let conv = |from: usize, to: usize, k: usize| from * to * k * k + 2 * to;
    let expected =
        conv(3, 8, 3) + 4 * conv(8, 8, 3) + conv(8, 2, 1) + (18 * 9 + 9) + conv(8, 1, 1) + (9 * 64 + 64) + (64 + 1);
    assert_eq!(a.parameters(), expected);
}

/// A few hundred steps fit a fixed batch: the policy's cross-entropy falls to near the targets' entropy and the
/// value's error near 0.
#[test]
fn training_fits_a_small_batch() {
    let game = Connect4::new(5, 4).unwrap();
    let arch = Architecture::for_game(&game, 1, 8);
    let mut trainer = Trainer::new(Net::new(arch, 7).unwrap(), 0.01, 1e-4).unwrap();
    let positions = ["", "3", "33", "313", "3132"].map(|m| game.parse(m).unwrap());
    let n = positions.len();
    let mut x = vec![0.0; n * game.shape().len()];
    for (p, chunk) in positions.iter().zip(x.chunks_exact_mut(game.shape().len())) {
        game.encode(p, chunk);
    }
    // Each position's target: all on one column, a different one each; values alternating.
    let mut policy = vec![0.0; n * 5];
    for i in 0..n {
        policy[i * 5 + i] = 1.0;
    }
    let value: Vec<f32> = (0..n).map(|i| if i % 2 == 0 { 0.8 } else { -0.8 }).collect();
    let first = trainer.step(&x, &policy, &value, n).unwrap();
    let mut last = first;
    for _ in 0..300 {
        last = trainer.step(&x, &policy, &value, n).unwrap();
    }
    assert!(first.policy > 1.0 && last.policy < 0.2, "{first:?} -> {last:?}");
    assert!(last.value < 0.05, "{first:?} -> {last:?}");
    assert!(last.l2 > 0.0);
    // Training mode's batch statistics are not inference's running ones; the net still learned the targets.
    let (logits, _) = trainer.net().forward(&x, n).unwrap();
    let argmax: Vec<usize> = logits.chunks(5).map(|l| (0..5).max_by(|&a, &b| l[a].total_cmp(&l[b])).unwrap()).collect();
    assert!(argmax.iter().enumerate().filter(|&(i, &a)| i == a).count() >= 3, "{argmax:?}");
}

/// The tower as one matrix product per layer over the batch's cells (and batch norm folded in for inference)
/// against candle's own convolution and batch norm applied to the same weights, on a board that is not square:
/// inference against batch norm by the running statistics, which a few training steps make non-trivial; and
/// training's losses, by the batch's statistics, against the same losses computed the reference way.
#[test]
fn the_tower_matches_candles_convolution() {
    use candle_core::{D, Device, Tensor};
    let game = Connect4::new(5, 4).unwrap();
    let arch = Architecture::for_game(&game, 2, 8);
    let texts = ["", "3", "33", "313", "3132", "1234", "55443", "2222", "31415", "12345123", "4", "5511"];
    let n = texts.len();
    let mut x = vec![0.0; n * game.shape().len()];
    for (text, chunk) in texts.iter().zip(x.chunks_exact_mut(game.shape().len())) {
        game.encode(&game.parse(text).unwrap(), chunk);
    }
    let policy: Vec<f32> = (0..n * 5).map(|i| ((i * 7 % 5) as f32 + 0.5) / 12.5).collect();
    let value: Vec<f32> = (0..n).map(|i| (i as f32 * 0.37).sin()).collect();
    let mut trainer = Trainer::new(Net::new(arch, 3).unwrap(), 0.01, 1e-4).unwrap();
    for _ in 0..20 {
        trainer.step(&x, &policy, &value, n).unwrap();
    }
    let bytes = trainer.net().to_safetensors().unwrap();
    let w = candle_core::safetensors::load_buffer(&bytes, &Device::Cpu).unwrap();
    let input = Tensor::from_slice(&x, (n, 3, 4, 5), &Device::Cpu).unwrap();
    // The reference: candle's conv2d on (batch, channels, height, width), batch norm written out.
    let reference = |train: bool| -> (Tensor, Tensor) {
        let conv_norm = |x: &Tensor, layer: &str, kernel: usize| -> Tensor {
            let y = x.conv2d(&w[&format!("{layer}.conv.weight")], kernel / 2, 1, 1, 1).unwrap();
            let channel = |t: &Tensor| t.reshape((1, (), 1, 1)).unwrap();
            let (mean, var) = if train {
                let mean = y.mean_keepdim(0).unwrap().mean_keepdim(2).unwrap().mean_keepdim(3).unwrap();
                let centred = y.broadcast_sub(&mean).unwrap();
                let var = centred.sqr().unwrap().mean_keepdim(0).unwrap().mean_keepdim(2).unwrap().mean_keepdim(3);
                (mean, var.unwrap())
            } else {
                (channel(&w[&format!("{layer}.norm.running_mean")]), channel(&w[&format!("{layer}.norm.running_var")]))
            };
            let normed = y.broadcast_sub(&mean).unwrap().broadcast_div(&(var + 1e-5).unwrap().sqrt().unwrap()).unwrap();
            let gamma = channel(&w[&format!("{layer}.norm.weight")]);
            normed.broadcast_mul(&gamma).unwrap().broadcast_add(&channel(&w[&format!("{layer}.norm.bias")])).unwrap()
        };
        let linear = |x: &Tensor, layer: &str| -> Tensor {
            let weight = &w[&format!("{layer}.weight")];
            x.matmul(&weight.t().unwrap()).unwrap().broadcast_add(&w[&format!("{layer}.bias")]).unwrap()
        };
        let mut h = conv_norm(&input, "stem", 3).relu().unwrap();
        for block in 0..2 {
            let y = conv_norm(&h, &format!("block{block}.a"), 3).relu().unwrap();
            h = (conv_norm(&y, &format!("block{block}.b"), 3) + &h).unwrap().relu().unwrap();
        }
        let p = conv_norm(&h, "policy", 1).relu().unwrap().flatten_from(1).unwrap();
        let v = conv_norm(&h, "value", 1).relu().unwrap().flatten_from(1).unwrap();
        let v = linear(&linear(&v, "value_hidden").relu().unwrap(), "value_out").tanh().unwrap();
        (linear(&p, "policy_out"), v.flatten_all().unwrap())
    };
    let close = |a: &[f32], b: &[f32], what: &str| {
        assert_eq!(a.len(), b.len());
        let worst = a.iter().zip(b).map(|(a, b)| (a - b).abs()).fold(0.0, f32::max);
        assert!(worst < 1e-4, "{what}: off by {worst}");
    };
    let (p, v) = reference(false);
    let (logits, values) = trainer.net().forward(&x, n).unwrap();
    close(&logits, &p.flatten_all().unwrap().to_vec1().unwrap(), "logits");
    close(&values, &v.to_vec1().unwrap(), "values");
    // The values must not be the same for every position, or the check above could hold by accident.
    assert!(values.iter().any(|&v| (v - values[0]).abs() > 1e-3), "{values:?}");
    let (p, v) = reference(true);
    let target_p = Tensor::from_slice(&policy, (n, 5), &Device::Cpu).unwrap();
    let log_p = candle_nn::ops::log_softmax(&p, D::Minus1).unwrap();
    let policy_loss: f32 = (log_p * target_p).unwrap().sum(1).unwrap().mean_all().unwrap().to_scalar().unwrap();
    let value_loss: f32 = (v - Tensor::from_slice(&value, n, &Device::Cpu).unwrap())
        .unwrap()
        .sqr()
        .unwrap()
        .mean_all()
        .unwrap()
        .to_scalar()
        .unwrap();
    let losses = trainer.step(&x, &policy, &value, n).unwrap();
    close(&[losses.policy, losses.value], &[-policy_loss, value_loss], "training's losses");
}

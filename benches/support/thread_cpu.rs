//! Shared by the benches: the calling thread's CPU time, which a busy machine does not inflate.

use std::time::Duration;

/// This thread's CPU time so far (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`, 64-bit Linux
/// only). On a shared machine it leaves out the time the bench waits for a CPU; with one ONNX
/// Runtime thread per model the models run on the calling thread, so it is their cost too.
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
pub fn thread_cpu() -> Option<Duration> {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut ts = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec with the C layout of 64-bit Linux.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}

#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
pub fn thread_cpu() -> Option<Duration> {
    None
}

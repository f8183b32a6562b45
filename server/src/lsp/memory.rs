//! Giving the memory a large piece of work freed back to the system. The C allocator (glibc's)
//! keeps memory that was freed for later use, in a pool per thread: after a large record was
//! read on one thread and its text checked again on another, or after thousands of documents
//! were closed, the server's resident memory stays where it was at its highest although the
//! server holds a fraction of it. `malloc_trim` hands the free pages back; it frees nothing the
//! server still holds. It walks every pool, so it is called only after work that freed a lot:
//! a large record checked after a pause, a large document closed, the last document closed.

/// Hands the pages the C allocator keeps free back to the system (glibc only; elsewhere
/// nothing).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn give_back_freed() {
    extern "C" {
        /// glibc's `int malloc_trim(size_t pad)`.
        fn malloc_trim(pad: usize) -> std::os::raw::c_int;
    }
    // SAFETY: `malloc_trim` takes a plain number and works on the allocator's own free lists
    // under its own locks; it touches no memory the program holds.
    #[allow(unsafe_code)]
    unsafe {
        malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn give_back_freed() {}

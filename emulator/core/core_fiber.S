/* ldsan emulator core: x86-64 fiber context switch (System V). Saves the
 * callee-saved registers on the current stack, stores the stack pointer, and
 * resumes the other context. No signal masks, no syscalls. MXCSR and the x87
 * control word are not switched: device code never changes them, and
 * ldmxcsr/fldcw cost more than the rest of the switch. A new fiber's stack is prepared by core_sched.c so that
 * the first switch "returns" into ldsan_emu_fiber_start with a 16-byte
 * aligned stack and the fiber's main function in r12 (this file calls no
 * function by name: the scheduler drives it, never the other way round). */
        .text
        .globl  ldsan_emu_ctx_switch
        .type   ldsan_emu_ctx_switch,@function
/* void ldsan_emu_ctx_switch(void **save_sp (rdi), void *new_sp (rsi)) */
ldsan_emu_ctx_switch:
        pushq   %rbp
        pushq   %rbx
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
        movq    %rsp, (%rdi)
        movq    %rsi, %rsp
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        ret
        .size   ldsan_emu_ctx_switch, .-ldsan_emu_ctx_switch

        .globl  ldsan_emu_fiber_start
        .type   ldsan_emu_fiber_start,@function
/* First code of every fiber: rsp is the 16-byte aligned stack top, r12 the
 * function to run (it never returns). */
ldsan_emu_fiber_start:
        xorl    %ebp, %ebp
        callq   *%r12
        ud2
        .size   ldsan_emu_fiber_start, .-ldsan_emu_fiber_start

        .section .note.GNU-stack,"",@progbits

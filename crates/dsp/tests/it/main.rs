//! Integration tests for resound-dsp: the DSP properties of STYLE.md §2 item 8 and the
//! must-show items of issue 6 (dsp half).

mod binaural;
mod block;
mod click;
mod finite;
mod limiter;
mod reverb;
mod shelf;
mod silence;
mod tap;

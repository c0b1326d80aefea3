//! Forces, officers, terrain and conditions (pages 2-10), validated at load.

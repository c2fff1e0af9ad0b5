"""Machine-checked derivations: sympy scripts whose ``main()`` returns True when the proof goes through."""

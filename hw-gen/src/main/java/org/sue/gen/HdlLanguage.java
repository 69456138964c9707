package org.sue.gen;

public enum HdlLanguage { VERILOG, VHDL }

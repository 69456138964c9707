package org.sue.vec;

public enum PortDir { IN, OUT }
